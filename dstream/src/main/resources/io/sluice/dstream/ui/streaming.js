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
  function clockTime(ms) { return new Date(ms).toISOString().substring(11, 19); }
  // A value with its unit, as the axes and hover texts label it.
  function valueText(v, unit) { return unit === 'ms' ? dur(v) : num(v) + ' ' + unit; }
  // An axis's top: at least 10 ms for times (a chart of zeros still reads in ms), else the value rounded up to
  // 1, 2 or 5 times a power of ten, so the ticks are round numbers.
  function axisTop(v, unit) {
    if (unit === 'ms' && v < 10) { return 10; }
    var p = Math.pow(10, Math.floor(Math.log10(v || 1))), steps = [1, 2, 5, 10], i;
    for (i = 0; i < steps.length; i++) { if (steps[i] * p >= v) { return steps[i] * p; } }
    return v;
  }
  // A tick's text: times as durations, other values as compact numbers (the unit labels the axis once).
  function tickText(v, unit) {
    if (unit === 'ms') { return dur(v); }
    return v >= 1e6 ? num(v / 1e6) + 'M' : v >= 1e4 ? num(v / 1e3) + 'k' : num(v);
  }
  function text(x, y, cls, body, anchor) {
    return '<text class="' + cls + '" x="' + x.toFixed(1) + '" y="' + y.toFixed(1) + '"' +
      (anchor ? ' text-anchor="' + anchor + '"' : '') + '>' + esc(body) + '</text>';
  }
  // The dashed batch-interval line: below it the job keeps up (Spark's "stable" mark), on processing time only.
  function stableLine(x1, y1, x2, y2, stable, labelX, labelY) {
    return '<line class="stable" data-ms="' + stable + '" x1="' + x1.toFixed(1) + '" y1="' + y1.toFixed(1) +
      '" x2="' + x2.toFixed(1) + '" y2="' + y2.toFixed(1) + '"><title>batch interval ' + esc(dur(stable)) +
      ': below it, batches finish before the next one is due</title></line>' +
      text(labelX, labelY, 'stable-label', 'stable');
  }
  // A timeline: one point per batch (x: batch time, y: value; hover a point for both); unknown values (-1) are
  // left out. Axes: batch times at both ends and the middle, values at 0, half and the top.
  function timeline(xs, ys, unit, stable) {
    var w = 460, h = 150, left = 58, right = 8, top = 10, bottom = 28, pts = [], maxY = stable || 0, i;
    for (i = 0; i < ys.length; i++) { if (ys[i] > maxY) { maxY = ys[i]; } }
    maxY = axisTop((maxY || 1) * (stable ? 1.1 : 1), unit);
    var minX = xs.length ? xs[0] : 0, maxX = xs.length ? xs[xs.length - 1] : 1, spanX = Math.max(1, maxX - minX);
    var plotW = w - left - right, plotH = h - top - bottom;
    function px(t) { return left + (t - minX) / spanX * plotW; }
    function py(v) { return top + plotH - v / maxY * plotH; }
    var body = '<line class="axis" x1="' + left + '" y1="' + (top + plotH) + '" x2="' + (w - right) + '" y2="' +
      (top + plotH) + '"></line><line class="axis" x1="' + left + '" y1="' + top + '" x2="' + left + '" y2="' +
      (top + plotH) + '"></line>';
    [0, maxY / 2, maxY].forEach(function (v) {
      body += text(left - 4, py(v) + 3, 'tick y', tickText(v, unit), 'end');
    });
    if (unit !== 'ms') { body += text(left + 4, top + 9, 'axis-label', unit); }
    var xticks = xs.length > 2 ? [minX, minX + spanX / 2, maxX] : xs;
    xticks.forEach(function (t, n) {
      var anchor = n === 0 ? 'start' : n === xticks.length - 1 ? 'end' : 'middle';
      body += text(px(t), h - bottom + 14, 'tick x', clockTime(t), anchor);
    });
    body += text(left + plotW / 2, h - 2, 'axis-label', 'batch time', 'middle');
    if (stable) { body += stableLine(left, py(stable), w - right, py(stable), stable, w - right - 34, py(stable) - 3); }
    var dots = '';
    for (i = 0; i < ys.length; i++) {
      if (ys[i] < 0) { continue; }
      var x = px(xs[i]), y = py(ys[i]);
      pts.push(x.toFixed(1) + ',' + y.toFixed(1));
      if (ys.length <= 300) {
        dots += '<circle cx="' + x.toFixed(1) + '" cy="' + y.toFixed(1) + '" r="2.5"><title>' +
          esc(time(xs[i]) + ': ' + valueText(ys[i], unit)) + '</title></circle>';
      }
    }
    return svg(w, h, body + '<polyline class="timeline" data-points="' + pts.length + '" points="' +
      pts.join(' ') + '"></polyline>' + dots);
  }
  // A histogram of the known values in ten buckets (x: value, y: batches; hover a bar for its range and count).
  function histogram(ys, unit, stable) {
    var w = 260, h = 150, left = 30, right = 8, top = 10, bottom = 28, i;
    var vals = ys.filter(function (v) { return v >= 0; }), max = stable || 0;
    for (i = 0; i < vals.length; i++) { if (vals[i] > max) { max = vals[i]; } }
    max = axisTop(max, unit);
    var buckets = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    vals.forEach(function (v) { buckets[max === 0 ? 0 : Math.min(9, Math.floor(v / max * 10))]++; });
    var most = Math.max.apply(null, buckets) || 1, plotW = w - left - right, plotH = h - top - bottom, bars = '';
    for (i = 0; i < 10; i++) {
      var bh = buckets[i] / most * plotH;
      bars += '<rect class="bar" data-count="' + buckets[i] + '" x="' + (left + i * plotW / 10 + 1).toFixed(1) +
        '" y="' + (top + plotH - bh).toFixed(1) + '" width="' + (plotW / 10 - 2).toFixed(1) + '" height="' +
        bh.toFixed(1) + '"><title>' + esc(valueText(max * i / 10, unit) + ' to ' + valueText(max * (i + 1) / 10,
        unit) + ': ' + buckets[i] + ' batches') + '</title></rect>';
    }
    var body = bars + '<line class="axis" x1="' + left + '" y1="' + (top + plotH) + '" x2="' + (w - right) +
      '" y2="' + (top + plotH) + '"></line>' + text(left - 4, top + 8, 'tick y', String(most), 'end') +
      text(left - 4, top + plotH + 3, 'tick y', '0', 'end') + text(left, h - bottom + 14, 'tick x', tickText(0, unit)) +
      text(w - right, h - bottom + 14, 'tick x', tickText(max, unit) + (unit === 'ms' ? '' : ' ' + unit), 'end') +
      text(left + plotW / 2, h - 2, 'axis-label', 'batches per value', 'middle');
    if (stable && max > 0) {
      var sx = left + stable / max * plotW;
      body += stableLine(sx, top, sx, top + plotH, stable, sx - 36, top + 8);
    }
    return svg(w, h, body);
  }
  // Output operations done of all, as a bar: green succeeded, red failed, light the one running.
  function progress(done, failed, running, total) {
    function part(cls, n) {
      return n > 0 ? '<span class="' + cls + '" style="width:' + (n / Math.max(1, total) * 100).toFixed(1) +
        '%"></span>' : '';
    }
    return '<span class="progress">' + part('ok', done - failed) + part('bad', failed) + part('run', running) +
      '</span><span class="progress-text">' + done + '/' + total + (failed > 0 ? ' (' + failed + ' failed)' : '') +
      '</span>';
  }
  // What each figure means, shown when the pointer rests on its name (as Spark's tab explains its figures).
  var tips = {
    inputRate: 'Records the input streams received for a batch, per second of the batch interval.',
    schedulingDelay: 'Time from a batch\'s time until its first job started: how long it waited behind earlier ' +
      'batches.',
    processingTime: 'Time from the start of a batch\'s first job to the end of its last. Under the dashed ' +
      'batch interval line (stable), batches finish before the next one is due.',
    totalDelay: 'Scheduling delay plus processing time: from the batch\'s time until its last output was done.',
    records: 'Records the batch\'s input streams received.',
    outputOps: 'Output operations of the batch done, of all (each runs as its own job); red: failed.'
  };
  function tip(key) { return ' <span class="tip" data-tip="' + key + '" title="' + esc(tips[key]) + '">(?)</span>'; }
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
      '<td class="output-ops" data-done="' + b.completedOutputOperations + '" data-total="' + b.outputOperations +
      '" data-failed="' + b.failedOutputOperations + '" data-running="' + b.runningOutputOperations + '">' +
      progress(b.completedOutputOperations, b.failedOutputOperations, b.runningOutputOperations,
        b.outputOperations) + '</td><td class="status ' + esc(b.status) + '">' + esc(b.status) + '</td></tr>';
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
  var batchHeads = ['Batch time', 'Records' + tip('records'), 'Input rate (records/s)' + tip('inputRate'),
    'Scheduling delay' + tip('schedulingDelay'), 'Processing time' + tip('processingTime'),
    'Total delay' + tip('totalDelay'), 'Output ops: done/total' + tip('outputOps'), 'Status'];

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
        var stable = c[1] === 'processingTime' ? s.batchIntervalMs : 0;
        return '<tr class="chart" data-series="' + c[1] + '"><td><b>' + c[0] + '</b>' + tip(c[1]) + '<br>avg ' +
          valueText(s[c[2]], c[3]) + '</td><td>' + timeline(x, s.series[c[1]], c[3], stable) + '</td><td>' +
          histogram(s.series[c[1]], c[3], stable) + '</td></tr>';
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
      // As Spark's tab: the batch being processed apart from those queued behind it.
      var running = active.batches.filter(function (b) { return b.status === 'processing'; });
      var waiting = active.batches.filter(function (b) { return b.status !== 'processing'; });
      html += '<h4>Running batches (' + running.length + ')</h4>' + table('sluice-running', batchHeads,
        running.map(batchRow));
      html += '<h4>Waiting batches (' + waiting.length + ')</h4>' + table('sluice-waiting', batchHeads,
        waiting.map(batchRow));
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
      var done = b.outputOperations.filter(function (o) { return o.endTime >= 0; }).length;
      var failed = b.outputOperations.filter(function (o) { return o.failureReason; }).length;
      var runningOps = b.outputOperations.filter(function (o) { return o.startTime >= 0 && o.endTime < 0; }).length;
      html += '<h4>Output operations: <span id="sluice-outputs-progress">' + progress(done, failed, runningOps,
        b.outputOperations.length) + '</span>' + tip('outputOps') + '</h4>' + table('sluice-outputs',
        ['Id', 'Operation', 'Started', 'Duration', 'Status'], b.outputOperations.map(function (o) {
          var state = o.failureReason ? 'failed' : o.endTime >= 0 ? 'succeeded' : o.startTime >= 0 ? 'running' :
            'waiting';
          return '<tr data-status="' + state + '"><td>' + o.id + '</td><td>' + esc(o.description) + '</td><td>' +
            esc(time(o.startTime)) + '</td><td class="num">' + dur(o.duration) + '</td><td class="' + state + '">' +
            (o.failureReason ? esc(o.failureReason) : state) + '</td></tr>';
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
