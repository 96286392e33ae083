// Sluice's Streaming page: fills #sluice-streaming from the JSON endpoints (or, in a run report, from the
// documents embedded in the file), redrawing every second. Charts are SVG drawn here; no library.
(function () {
  'use strict';
  var root = document.getElementById('sluice-streaming');
  if (!root) { return; }
  var api = root.getAttribute('data-api');
  var uiRoot = root.getAttribute('data-root') || '';
  var batchId = root.getAttribute('data-batch');
  var report = window.SLUICE_REPORT || null; // path -> document, in a run report
  var page = 1;
  if (report && location.hash.indexOf('#batch=') === 0) { batchId = location.hash.substring(7); }

  function load(path) {
    if (report) {
      return Promise.resolve(report[path] === undefined ? null : report[path]);
    }
    return fetch(api + '/' + path, {cache: 'no-store'}).then(function (r) {
      if (r.status === 404) { return null; }
      if (!r.ok) { throw new Error(path + ': HTTP ' + r.status); }
      return r.json();
    });
  }
  function esc(s) {
    return String(s === null || s === undefined ? '' : s).replace(/&/g, '&amp;').replace(/</g, '&lt;')
      .replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  }
  function time(ms) {
    if (ms < 0) { return '-'; }
    return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
  }
  function dur(ms) {
    if (ms === null || ms < 0) { return '-'; }
    if (ms < 1000) { return Math.round(ms) + ' ms'; }
    return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
  }
  function size(b) {
    if (b === null || b === undefined || b < 0) { return '-'; }
    var units = ['B', 'KB', 'MB', 'GB', 'TB'], i = 0;
    while (b >= 1024 && i < units.length - 1) { b /= 1024; i++; }
    return (i === 0 ? b : b.toFixed(b < 10 ? 2 : 1)) + ' ' + units[i];
  }
  function num(x) { return x === null || x < 0 ? '-' : (Math.round(x * 100) / 100).toLocaleString('en-US'); }
  function batchLink(ms) {
    var href = report ? '#batch=' + ms : uiRoot + '/streaming/batch/?id=' + ms;
    return '<a class="batch-link" href="' + href + '">' + esc(time(ms)) + '</a>';
  }
  function svg(w, h, body) {
    return '<svg width="' + w + '" height="' + h + '" viewBox="0 0 ' + w + ' ' + h + '">' + body + '</svg>';
  }
  // A timeline: one point per batch (x: batch time, y: value); unknown values (-1) are left out.
  function timeline(xs, ys, unit) {
    var w = 420, h = 120, pad = 30, pts = [], maxY = 0, i;
    for (i = 0; i < ys.length; i++) { if (ys[i] > maxY) { maxY = ys[i]; } }
    var minX = xs.length ? xs[0] : 0, maxX = xs.length ? xs[xs.length - 1] : 1, spanX = Math.max(1, maxX - minX);
    maxY = maxY || 1;
    var dots = '';
    for (i = 0; i < ys.length; i++) {
      if (ys[i] < 0) { continue; }
      var x = pad + (xs[i] - minX) / spanX * (w - pad - 5), y = h - 15 - ys[i] / maxY * (h - 25);
      pts.push(x.toFixed(1) + ',' + y.toFixed(1));
      if (ys.length <= 300) { dots += '<circle cx="' + x.toFixed(1) + '" cy="' + y.toFixed(1) + '" r="2"></circle>'; }
    }
    return svg(w, h, '<text x="2" y="12">' + esc(num(maxY) + ' ' + unit) + '</text><text x="2" y="' + (h - 3) +
      '">0</text><polyline class="timeline" data-points="' + pts.length + '" points="' + pts.join(' ') + '">' +
      '</polyline>' + dots);
  }
  // A histogram of the known values in ten buckets.
  function histogram(ys) {
    var w = 220, h = 120, vals = ys.filter(function (v) { return v >= 0; }), max = 0, i;
    for (i = 0; i < vals.length; i++) { if (vals[i] > max) { max = vals[i]; } }
    var buckets = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    vals.forEach(function (v) { buckets[max === 0 ? 0 : Math.min(9, Math.floor(v / max * 10))]++; });
    var top = Math.max.apply(null, buckets) || 1, bars = '';
    for (i = 0; i < 10; i++) {
      var bh = buckets[i] / top * (h - 25);
      bars += '<rect class="bar" data-count="' + buckets[i] + '" x="' + (5 + i * 21) + '" y="' + (h - 15 - bh) +
        '" width="19" height="' + bh + '"></rect>';
    }
    return svg(w, h, bars + '<text x="5" y="' + (h - 3) + '">0</text><text x="' + (w - 60) + '" y="' + (h - 3) +
      '">' + esc(num(max)) + '</text>');
  }
  function table(id, heads, rows) {
    return '<table id="' + id + '"><thead><tr>' + heads.map(function (x) { return '<th>' + x + '</th>'; }).join('') +
      '</tr></thead><tbody>' + rows.join('') + '</tbody></table>';
  }
  function batchRow(b) {
    return '<tr data-batch="' + b.batchTime + '"><td class="batch-time">' + batchLink(b.batchTime) + '</td>' +
      '<td class="num records">' + b.numRecords + '</td><td class="num rate">' + num(b.inputRate) + '</td>' +
      '<td class="num scheduling-delay" data-ms="' + b.schedulingDelay + '">' + dur(b.schedulingDelay) + '</td>' +
      '<td class="num processing-time" data-ms="' + b.processingTime + '">' + dur(b.processingTime) + '</td>' +
      '<td class="num total-delay" data-ms="' + b.totalDelay + '">' + dur(b.totalDelay) + '</td>' +
      '<td class="num">' + b.outputOperations + '</td><td class="status ' + esc(b.status) + '">' + esc(b.status) +
      (b.failedOutputOperations > 0 ? ' (' + b.failedOutputOperations + ' failed)' : '') + '</td></tr>';
  }
  // A state checkpoint: its kind, files, bytes and write time; '-' when the batch wrote none.
  function checkpointCell(c) {
    if (!c) { return '<td class="checkpoint">-</td>'; }
    return '<td class="checkpoint" data-kind="' + esc(c.kind) + '" data-bytes="' + c.bytes + '">' + esc(c.kind) +
      ': ' + (c.fullFiles + c.deltaFiles) + ' files, ' + size(c.bytes) + ' in ' + dur(c.writeMs) + '</td>';
  }
  // One batch's figures of one stateful operator (keys, estimated bytes, timed-out keys, checkpoint).
  function stateCells(f) {
    var known = f.reportedPartitions > 0;
    return '<td class="num keys">' + (known ? f.keys : '-') + '</td><td class="num bytes" data-bytes="' +
      f.bytes + '">' + (known ? size(f.bytes) : '-') + '</td><td class="num timed-out">' +
      (known ? f.timedOut : '-') + '</td><td class="num partitions">' + (f.reportedPartitions < f.partitions ?
      f.reportedPartitions + ' of ' + f.partitions : f.partitions) + '</td>' + checkpointCell(f.checkpoint);
  }
  var stateHeads = ['Keys', 'Estimated size', 'Timed out', 'Partitions', 'Checkpoint written'];
  function stateSection(ops) {
    if (!ops || !ops.length) { return ''; }
    return '<h4>State</h4>' + ops.map(function (o, i) {
      var l = o.latest, c = o.lastCheckpoint;
      return '<div class="state-operator" data-operator="' + esc(o.id) + '"><b>' + esc(o.id) + '</b> (' +
        esc(o.callSite) + '): ' + (l ? '<span class="state-keys">' + l.keys +
        '</span> keys, about ' + size(l.bytes) + ' after batch ' + batchLink(l.batchTime) : 'no batch yet') +
        '; last checkpoint: ' + (c ? esc(c.kind) + ', ' + size(c.bytes) + ' in ' + dur(c.writeMs) + ' (batch ' +
        batchLink(c.batchTime) + ')' : 'none') + '.<br>' + timeline(o.series.batchTime, o.series.keys, 'keys') +
        table('sluice-state-' + i, ['Batch time'].concat(stateHeads), o.history.map(function (f) {
          return '<tr data-batch="' + f.batchTime + '"><td>' + batchLink(f.batchTime) + '</td>' + stateCells(f) +
            '</tr>';
        })) + '</div>';
    }).join('');
  }
  var batchHeads = ['Batch time', 'Records', 'Input rate (records/s)', 'Scheduling delay', 'Processing time',
    'Total delay', 'Output ops', 'Status'];

  function overview() {
    return Promise.all([load('statistics'), load('receivers'), load('batches?status=active'),
      load('batches?status=completed&page=' + page), load('operators'), load('state')]).then(function (r) {
      var s = r[0], sources = r[1], active = r[2], done = r[3], ops = r[4], x = s.series.batchTime;
      var html = '<div class="summary" id="sluice-summary">Batches of <b>' + dur(s.batchIntervalMs) +
        '</b> since ' + esc(time(s.startTime)) + ': <b id="sluice-completed-count">' + s.completedBatches +
        '</b> completed (' + s.failedBatches + ' failed), ' + s.activeBatches + ' active, ' + s.totalRecords +
        ' records. Charts over the last ' + s.retainedCompleted + ' completed batches (retaining ' +
        s.retainedBatches + '). Last checkpointed batch: ' + (s.lastCheckpointedBatch < 0 ? 'none' :
        esc(time(s.lastCheckpointedBatch)) + ' (' + dur(s.checkpointAgeMs) + ' ago)') + '.</div>';
      var charts = [['Input rate', 'inputRate', 'avgInputRate', 'records/s'],
        ['Scheduling delay', 'schedulingDelay', 'avgSchedulingDelay', 'ms'],
        ['Processing time', 'processingTime', 'avgProcessingTime', 'ms'],
        ['Total delay', 'totalDelay', 'avgTotalDelay', 'ms']];
      html += table('sluice-charts', ['', 'Timeline', 'Histogram'], charts.map(function (c) {
        return '<tr class="chart" data-series="' + c[1] + '"><td><b>' + c[0] + '</b><br>avg ' +
          (c[3] === 'ms' ? dur(s[c[2]]) : num(s[c[2]]) + ' ' + c[3]) + '</td><td>' +
          timeline(x, s.series[c[1]], c[3]) + '</td><td>' + histogram(s.series[c[1]]) + '</td></tr>';
      }));
      html += '<h4>Sources and receivers</h4>' + table('sluice-sources', ['Source', 'Id', 'Status',
        'Avg input rate (records/s)', 'Rate limit (records/s)', 'Reconnects', 'Last error'],
        sources.map(function (src) {
          return '<tr data-source="' + esc(src.name) + '"><td>' + esc(src.receiver || src.name) + '</td><td>' +
            esc(src.id) + '</td><td class="status ' + esc(src.status) + '">' + esc(src.status) + '</td>' +
            '<td class="num">' + num(src.avgInputRate) + '</td><td class="num">' +
            (src.rateLimit < 0 ? '-' : src.rateLimit === 0 ? 'unlimited' : num(src.rateLimit)) + '</td>' +
            '<td class="num">' + src.reconnects + '</td><td>' + (src.lastError ? esc(time(src.lastErrorTime)) +
            ': ' + esc(src.lastError) : '') + '</td></tr>';
        }));
      html += stateSection(r[5]);
      html += '<h4>Active batches (' + active.total + ')</h4>' + table('sluice-active', batchHeads,
        active.batches.map(batchRow));
      var pages = Math.max(1, Math.ceil(done.total / done.size));
      html += '<h4>Completed batches (last ' + done.total + ', newest first)</h4>' + table('sluice-completed',
        batchHeads, done.batches.map(batchRow)) + '<div class="pager">Page ' + done.page + ' of ' + pages + ' ' +
        (done.page > 1 ? '<button data-page="' + (done.page - 1) + '">previous</button>' : '') +
        (done.page < pages ? '<button data-page="' + (done.page + 1) + '">next</button>' : '') + '</div>';
      html += '<h4>Operators</h4>' + table('sluice-operators', ['Id', 'Kind', 'Created at', 'Parents', 'Outputs'],
        ops.map(function (o) {
          return '<tr><td>' + esc(o.id) + (o.stateful ? ' (stateful)' : '') + '</td><td>' + esc(o.kind) +
            '</td><td>' + esc(o.callSite) + '</td><td>' + esc(o.parents.join(', ')) + '</td><td>' +
            esc(o.outputs.join('; ')) + '</td></tr>';
        }));
      show(html);
    });
  }

  function batch() {
    return load('batches/' + batchId).then(function (b) {
      if (!b) {
        show('<p id="sluice-missing">Batch ' + esc(batchId) + ' is not retained (see ' +
          'sluice.ui.retainedBatches).</p>');
        return;
      }
      var html = '<div class="summary" id="sluice-batch" data-batch="' + b.batchTime + '">Batch <b>' +
        esc(time(b.batchTime)) + '</b>: <span class="status ' + esc(b.status) + '">' + esc(b.status) +
        '</span>, <span class="records">' + b.numRecords + '</span> records (' + b.skippedRecords + ' skipped, ' +
        b.repairedRecords + ' repaired); scheduling delay ' + dur(b.schedulingDelay) + ', processing time ' +
        dur(b.processingTime) + ', total delay ' + dur(b.totalDelay) + '. ' +
        (report ? '<a href="#">back</a>' : '<a href="' + uiRoot + '/streaming/">back</a>') + '</div>';
      html += '<h4>Inputs</h4>' + table('sluice-inputs', ['Source', 'Records', 'Skipped', 'Repaired',
        'Rate (records/s)'], b.inputs.map(function (i) {
          return '<tr><td>' + esc(i.name) + '</td><td class="num">' + i.records + '</td><td class="num">' +
            i.skipped + '</td><td class="num">' + i.repaired + '</td><td class="num">' + num(i.inputRate) +
            '</td></tr>';
        }));
      html += '<h4>Output operations</h4>' + table('sluice-outputs', ['Id', 'Operation', 'Duration', 'Status'],
        b.outputOperations.map(function (o) {
          return '<tr><td>' + o.id + '</td><td>' + esc(o.description) + '</td><td class="num">' + dur(o.duration) +
            '</td><td class="' + (o.failureReason ? 'failed' : '') + '">' + (o.failureReason ?
            esc(o.failureReason) : o.endTime >= 0 ? 'succeeded' : 'running') + '</td></tr>';
        }));
      if (b.state && b.state.length) {
        html += '<h4>State</h4>' + table('sluice-batch-state', ['Operator'].concat(stateHeads),
          b.state.map(function (f) {
            return '<tr data-operator="' + esc(f.id) + '"><td>' + esc(f.id) + '</td>' + stateCells(f) + '</tr>';
          }));
      }
      html += '<h4>Spark jobs</h4>' + table('sluice-jobs', ['Job', 'Description'], b.jobs.map(function (j) {
        return '<tr><td>' + (report ? j.id : '<a href="' + uiRoot + '/jobs/job/?id=' + j.id + '">' + j.id +
          '</a>') + '</td><td>' + esc(j.description) + '</td></tr>';
      }));
      show(html);
    });
  }

  root.addEventListener('click', function (e) {
    var p = e.target.getAttribute && e.target.getAttribute('data-page');
    if (p) { page = parseInt(p, 10); refresh(); }
  });
  if (report) {
    window.addEventListener('hashchange', function () {
      batchId = location.hash.indexOf('#batch=') === 0 ? location.hash.substring(7) : '';
      refresh();
    });
  }
  // Redraw only what changed: a table being read (or clicked) is not replaced by an identical one every second.
  var shown = null;
  function show(html) {
    if (html !== shown) { root.innerHTML = html; shown = html; }
  }
  var busy = false;
  function refresh() {
    if (busy) { return; }
    busy = true;
    (batchId ? batch() : overview()).catch(function (e) {
      root.setAttribute('data-error', String(e));
    }).then(function () {
      busy = false;
      root.setAttribute('data-rendered', String(Date.now()));
    });
  }
  refresh();
  if (!report) { setInterval(refresh, 1000); }
})();
