#!/usr/bin/env bash
# Runs the word-count sample with spark-submit on a real standalone Spark 4.2.0 cluster (a Master and a Worker,
# separate JVMs, bound to 127.0.0.1), built from Maven artifacts only: no Spark distribution needed. Spark and
# Scala come from the "cluster" (its jars/ folder); Sluice travels inside the application jar.
# Usage: samples/standalone-cluster.sh [WordCount options, default --batches 5]. Stops the cluster at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--batches 5)

# The flags Spark needs on Java 17 (the parent pom's spark.add-opens).
OPENS=(--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/sun.util.calendar=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED)

# 1. The application jar, and Spark core's own classpath standing in for a Spark distribution's jars/.
mvn -B -q -DskipTests package
mvn -B -q dependency:build-classpath -pl rdd-bridge -Dmdep.outputFile=target/spark.classpath
work=$(mktemp -d /tmp/sluice-cluster.XXXXXX)
export SPARK_HOME="$work/spark-home" SPARK_SCALA_VERSION=2.13 SPARK_LOCAL_IP=127.0.0.1
mkdir -p "$SPARK_HOME/jars"
tr ':' '\n' < rdd-bridge/target/spark.classpath | xargs -I{} ln -s {} "$SPARK_HOME/jars/"
SPARK_CP="$SPARK_HOME/jars/*"

# 2. Master (any free port) and one Worker with 2 cores.
pids=()
stop_cluster() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap stop_cluster EXIT
java -Xmx256m "${OPENS[@]}" -Dspark.master.rest.enabled=false -cp "$SPARK_CP" org.apache.spark.deploy.master.Master \
  --host 127.0.0.1 --port 0 --webui-port 0 > "$work/master.log" 2>&1 &
pids+=($!)
master=""
for _ in $(seq 120); do
  master=$(grep -o 'spark://127.0.0.1:[0-9]*' "$work/master.log" | head -1 || true)
  [ -n "$master" ] && break
  sleep 0.5
done
[ -n "$master" ] || { echo "the Master did not start; see $work/master.log" >&2; exit 1; }
java -Xmx256m "${OPENS[@]}" -cp "$SPARK_CP" org.apache.spark.deploy.worker.Worker --host 127.0.0.1 --port 0 \
  --webui-port 0 --cores 2 --memory 1g --work-dir "$SPARK_HOME/work" "$master" > "$work/worker.log" 2>&1 &
pids+=($!)
for _ in $(seq 120); do
  grep -q 'Registering worker' "$work/master.log" && break
  sleep 0.5
done
grep -q 'Registering worker' "$work/master.log" || { echo "the Worker did not register; see $work/worker.log" >&2; exit 1; }
echo "Standalone cluster at $master (logs in $work)"

# 3. spark-submit: bin/spark-submit of a Spark distribution runs this same class, org.apache.spark.deploy.SparkSubmit.
java -Xmx1g "${OPENS[@]}" -cp "$SPARK_CP" org.apache.spark.deploy.SparkSubmit \
  --master "$master" --deploy-mode client --class io.sluice.samples.WordCount \
  --conf spark.driver.host=127.0.0.1 --conf spark.driver.bindAddress=127.0.0.1 --conf spark.log.level=WARN \
  --executor-memory 512m --total-executor-cores 2 \
  samples/target/sluice-samples-0.1.0-SNAPSHOT-spark-app.jar "${args[@]}"
