// Lantern analytics dashboard: loads the report API, draws charts with uPlot and (for the owner)
// manages share links. An ES module served from our own origin; no inline script needed.
import { DAY_MS, dayLabel, duration, isoDate, ms, num, pct, rangeLabel, summaryFigures, utcTime } from './format.js'
import { dayRange, uptimeRange, uptimeTicks } from './scales.js'

;(function () {
  'use strict'
  var root = document.getElementById('dashboard')
  if (!root) return
  var api = root.dataset.api
  var pageId = root.dataset.pageId
  var token = root.dataset.token || ''
  var owner = root.dataset.mode === 'owner'
  var state = { range: root.dataset.range || '90d', from: root.dataset.from || '', to: root.dataset.to || '' }
  var charts = []
  var lastReport = null
  var loadSeq = 0

  function $(id) { return document.getElementById(id) }
  function el(tag, text, cls) {
    var node = document.createElement(tag)
    if (text !== undefined && text !== null) node.textContent = String(text)
    if (cls) node.className = cls
    return node
  }
  function showError(id, message) {
    var node = $(id)
    if (!node) return
    node.textContent = message || ''
    node.hidden = !message
  }

  function reportUrl() {
    var params = new URLSearchParams()
    if (state.range === 'custom') { params.set('from', state.from); params.set('to', state.to) } else params.set('range', state.range)
    if (token) params.set('token', token)
    return api + '?' + params.toString()
  }

  function syncLocation() {
    var params = new URLSearchParams(location.search)
    params.delete('range'); params.delete('from'); params.delete('to')
    if (state.range === 'custom') { params.set('range', 'custom'); params.set('from', state.from); params.set('to', state.to) } else params.set('range', state.range)
    history.replaceState(null, '', location.pathname + '?' + params.toString())
    var buttons = document.querySelectorAll('#range-form button.range')
    for (var i = 0; i < buttons.length; i++) buttons[i].setAttribute('aria-pressed', String(buttons[i].dataset.range === state.range))
  }

  function metric(label, value) {
    var box = el('div', null, 'metric')
    box.appendChild(el('div', value, 'value'))
    box.appendChild(el('div', label, 'label'))
    return box
  }

  function renderSummary(r) {
    var summary = $('summary')
    summary.replaceChildren.apply(summary, summaryFigures(r).map(function (figure) { return metric(figure[0], figure[1]) }))
    $('range-label').textContent = rangeLabel(r.range)
  }

  function renderComponents(r) {
    var body = document.querySelector('#components tbody')
    var rows = r.components.map(function (c) {
      var tr = el('tr')
      ;[c.group ? c.group + ' / ' + c.name : c.name, pct(c.uptime_percent), duration(c.up_s) + ' (' + pct(c.up_percent) + ')',
        duration(c.degraded_s) + ' (' + pct(c.degraded_percent) + ')', duration(c.down_s) + ' (' + pct(c.down_percent) + ')',
        num(c.incidents), duration(c.mttr_s), duration(c.mtbf_s), ms(c.avg_response_ms) + ' / ' + ms(c.p95_response_ms)]
        .forEach(function (text) { tr.appendChild(el('td', text)) })
      return tr
    })
    if (rows.length === 0) { var tr = el('tr'); var td = el('td', 'This page has no components yet.'); td.colSpan = 9; tr.appendChild(td); rows.push(tr) }
    body.replaceChildren.apply(body, rows)
  }

  // Colours of the current theme (user.css for text and grid, charts.css for the series), so that
  // axes, grid and lines read in light and dark mode.
  function themeColour(name, fallback) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback
  }

  // A point whose neighbours are both missing has no line to sit on: draw it as a dot.
  function isolatedPoints(u, seriesIdx, show) {
    if (show) return null
    var ys = u.data[seriesIdx], idxs = []
    for (var i = 0; i < ys.length; i++) {
      if (ys[i] != null && (i === 0 || ys[i - 1] == null) && (i === ys.length - 1 || ys[i + 1] == null)) idxs.push(i)
    }
    return idxs.length ? idxs : null
  }

  // Whole days only (the data is daily), in seconds as uPlot's time scale counts.
  var DAY_S = DAY_MS / 1000
  var DAY_STEPS = [1, 2, 7, 14, 30, 61, 91, 182, 365].map(function (n) { return n * DAY_S })
  function dayLabels(u, splits) { return splits.map(function (s) { return isoDate(s * 1000) }) }

  function renderCharts(r) {
    charts.forEach(function (c) { c.destroy() })
    charts = []
    lastReport = r
    if (typeof uPlot === 'undefined') return
    var xs = r.daily.map(function (d) { return Date.parse(d.date + 'T00:00:00Z') / 1000 })
    var text = themeColour('--fg', '#1b1f24'), grid = themeColour('--border', '#d8dde3')
    function nul(v) { return v === null || v === undefined ? null : v }
    function axis(extra) {
      var base = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } }
      for (var k in extra) base[k] = extra[k]
      return base
    }
    function chart(id, series, data, yAxis) {
      var target = $(id)
      target.replaceChildren()
      var opts = {
        // The chart fits its card: no sideways scroll on a narrow screen.
        width: Math.max(160, target.clientWidth || 640), height: 200,
        // Room on the right for the last day's label, centred on the last point.
        padding: [12, 36, 0, 0],
        series: [{ label: 'Day', value: function (u, v) { return v == null ? '–' : dayLabel(v * 1000) } }].concat(series.map(function (s) {
          s.points = { filter: isolatedPoints }
          s.value = function (u, v) { return v == null ? '–' : num(v) }
          return s
        })),
        axes: [axis({ values: dayLabels, incrs: DAY_STEPS, space: 80 }), axis(yAxis ? { size: 60, values: yAxis.ticks } : { size: 50 })],
        scales: {
          x: { time: true, range: function (u, min, max) { return dayRange(min, max) } },
          y: yAxis ? { range: yAxis.range } : {},
        },
      }
      charts.push(new uPlot(opts, [xs].concat(data), target))
    }
    var uptime = r.daily.map(function (d) { return nul(d.uptime_percent) })
    var lowest = uptime.reduce(function (low, v) { return v === null || (low !== null && low <= v) ? low : v }, null)
    chart('chart-uptime', [{ label: 'Uptime %', stroke: themeColour('--chart-uptime', '#067647'), width: 2 }], [uptime], {
      range: function () { return uptimeRange(lowest) },
      ticks: function (u, splits) { return uptimeTicks(splits) },
    })
    chart('chart-views', [
      { label: 'Views', stroke: themeColour('--chart-views', '#2563eb'), width: 2 },
      { label: 'Unique visitors', stroke: themeColour('--chart-visitors', '#7c3aed'), width: 2 },
      { label: 'Views during incidents or maintenance', stroke: themeColour('--chart-incident-views', '#b42318'), width: 2 },
    ], [
      r.daily.map(function (d) { return d.views }),
      r.daily.map(function (d) { return d.unique_visitors }),
      r.daily.map(function (d) { return d.incident_views }),
    ])
    chart('chart-response', [
      { label: 'Avg ms', stroke: themeColour('--chart-avg', '#0e7490'), width: 2 },
      { label: 'p95 ms', stroke: themeColour('--chart-p95', '#c2410c'), width: 2 },
    ], [
      r.daily.map(function (d) { return nul(d.avg_response_ms) }),
      r.daily.map(function (d) { return nul(d.p95_response_ms) }),
    ])
  }

  // The report the page opened with: its figures and components are already in the HTML, the
  // charts are drawn from its data without a request.
  function drawFirst() {
    var data = $('first-report')
    if (!data) return false
    var report = JSON.parse(data.textContent)
    loadSeq++
    renderCharts(report)
    root.dataset.loadedRange = report.range.key === 'custom' ? 'custom' : report.range.key
    return true
  }

  function load() {
    var seq = ++loadSeq
    showError('load-error', '')
    $('range-label').textContent = 'Loading…'
    // The first report is the one the page preloads (data-report), asked for by the same address.
    var url = seq === 1 && root.dataset.report ? root.dataset.report : reportUrl()
    fetch(url, { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (res) {
        return res.json().then(function (body) {
          if (!res.ok) throw new Error(body && body.error ? body.error : 'request failed (' + res.status + ')')
          return body.data
        })
      })
      .then(function (report) {
        if (seq !== loadSeq) return
        renderSummary(report)
        renderComponents(report)
        renderCharts(report)
        root.dataset.loadedRange = report.range.key === 'custom' ? 'custom' : report.range.key
      })
      .catch(function (error) {
        if (seq !== loadSeq) return
        $('range-label').textContent = ''
        showError('load-error', 'Could not load analytics: ' + error.message)
      })
  }

  var form = $('range-form')
  if (form) {
    form.addEventListener('click', function (event) {
      var button = event.target.closest('button.range')
      if (!button) return
      state = { range: button.dataset.range, from: '', to: '' }
      syncLocation()
      load()
    })
    form.addEventListener('submit', function (event) {
      event.preventDefault()
      var from = form.elements.from.value, to = form.elements.to.value
      if (!from || !to) { showError('load-error', 'Choose both dates for a custom range.'); return }
      state = { range: 'custom', from: from, to: to }
      syncLocation()
      load()
    })
  }

  // Redraw the charts in the colours of a new theme, and at the width of a resized window.
  var redraw = function () { if (lastReport) renderCharts(lastReport) }
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', redraw)
  var resizeTimer = 0
  window.addEventListener('resize', function () { clearTimeout(resizeTimer); resizeTimer = setTimeout(redraw, 150) })

  // ---- share links (owner only) ----
  var tokensBase = '/user/analytics/' + pageId + '/tokens'
  var fmtTime = utcTime

  function loadTokens() {
    fetch(tokensBase, { credentials: 'same-origin' })
      .then(function (res) { return res.json() })
      .then(function (body) {
        var tbody = document.querySelector('#token-list tbody')
        var rows = (body.data || []).map(function (t) {
          var tr = el('tr')
          tr.dataset.tokenId = String(t.id)
          tr.dataset.state = t.state
          ;[t.label, t.state, fmtTime(t.created_at), fmtTime(t.expires_at), t.read_only ? 'yes' : 'no', num(t.usage_count), fmtTime(t.last_used_at)]
            .forEach(function (text) { tr.appendChild(el('td', text)) })
          var cell = el('td')
          if (t.state !== 'revoked') {
            var revoke = el('button', 'Revoke', 'secondary')
            revoke.type = 'button'
            revoke.dataset.revoke = String(t.id)
            cell.appendChild(revoke)
          }
          tr.appendChild(cell)
          return tr
        })
        if (rows.length === 0) {
          var tr = el('tr'), td = el('td', 'No share links yet.', 'muted')
          td.colSpan = 8
          tr.appendChild(td)
          rows.push(tr)
        }
        tbody.replaceChildren.apply(tbody, rows)
      })
  }

  var tokenForm = $('token-form')
  if (owner && tokenForm) {
    tokenForm.addEventListener('submit', function (event) {
      event.preventDefault()
      showError('token-error', '')
      var body = { label: tokenForm.elements.label.value, read_only: tokenForm.elements.read_only.checked }
      var expires = tokenForm.elements.expires_at.value
      if (expires) body.expires_at = new Date(expires).toISOString()
      fetch(tokensBase, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
        .then(function (res) { return res.json().then(function (data) { if (!res.ok) throw new Error(data.error); return data.data }) })
        .then(function (created) {
          $('token-url').value = created.url
          $('token-secret').hidden = false
          loadTokens()
        })
        .catch(function (error) { showError('token-error', error.message) })
    })
    document.getElementById('token-list').addEventListener('click', function (event) {
      var button = event.target.closest('button[data-revoke]')
      if (!button) return
      fetch(tokensBase + '/' + button.dataset.revoke, { method: 'DELETE', credentials: 'same-origin' })
        .then(function (res) { if (!res.ok) throw new Error('could not revoke (' + res.status + ')') })
        .then(loadTokens)
        .catch(function (error) { showError('token-error', error.message) })
    })
    loadTokens()
  }

  if (!drawFirst()) load()
})()
