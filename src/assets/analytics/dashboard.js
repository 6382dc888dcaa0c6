// Lantern analytics dashboard: loads the report API, draws charts with uPlot and (for the owner)
// manages share links. Served from our own origin; no inline script needed.
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
  var loadSeq = 0

  function $(id) { return document.getElementById(id) }
  function el(tag, text, cls) {
    var node = document.createElement(tag)
    if (text !== undefined && text !== null) node.textContent = String(text)
    if (cls) node.className = cls
    return node
  }
  function pct(v) { return v === null || v === undefined ? '–' : v.toFixed(v === 100 ? 0 : 3).replace(/\.?0+$/, '') + ' %' }
  function num(v) { return v === null || v === undefined ? '–' : Number(v).toLocaleString('en') }
  function ms(v) { return v === null || v === undefined ? '–' : Math.round(v) + ' ms' }
  function duration(s) {
    if (s === null || s === undefined) return '–'
    if (s < 60) return s + ' s'
    var d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60)
    var parts = []
    if (d) parts.push(d + ' d')
    if (h) parts.push(h + ' h')
    if (m && !d) parts.push(m + ' min')
    return parts.join(' ') || '0 s'
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
    summary.replaceChildren(
      metric('Uptime', pct(r.uptime_percent)),
      metric('Views', num(r.views)),
      metric('Unique visitors (daily)', num(r.unique_visitors)),
      metric('Views during incidents', num(r.incident_views)),
      metric('Unique visitors during incidents', num(r.incident_unique_visitors)),
      metric('Incidents (outages)', num(r.incidents)),
      metric('Total downtime', duration(r.downtime_s)),
      metric('MTTR', duration(r.mttr_s)),
      metric('MTBF', duration(r.mtbf_s)),
      metric('Avg response', ms(r.avg_response_ms)),
      metric('p95 response', ms(r.p95_response_ms))
    )
    var label = r.range.key === 'custom' ? r.range.from.slice(0, 10) + ' to ' + r.range.to.slice(0, 10) : 'Last ' + r.range.days + ' days'
    $('range-label').textContent = label + ' (' + r.range.days + ' days)'
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

  function renderCharts(r) {
    charts.forEach(function (c) { c.destroy() })
    charts = []
    if (typeof uPlot === 'undefined') return
    var xs = r.daily.map(function (d) { return Date.parse(d.date + 'T00:00:00Z') / 1000 })
    function nul(v) { return v === null || v === undefined ? null : v }
    function chart(id, series, data) {
      var target = $(id)
      target.replaceChildren()
      var opts = {
        width: Math.max(280, target.clientWidth || 640), height: 200,
        series: [{}].concat(series), axes: [{}, {}], scales: { x: { time: true } },
      }
      charts.push(new uPlot(opts, [xs].concat(data), target))
    }
    chart('chart-uptime', [{ label: 'Uptime %', stroke: '#067647', width: 2 }], [r.daily.map(function (d) { return nul(d.uptime_percent) })])
    chart('chart-views', [
      { label: 'Views', stroke: '#2563eb', width: 2 },
      { label: 'Unique visitors', stroke: '#7c3aed', width: 2 },
      { label: 'Views during incidents', stroke: '#b42318', width: 2 },
    ], [
      r.daily.map(function (d) { return d.views }),
      r.daily.map(function (d) { return d.unique_visitors }),
      r.daily.map(function (d) { return d.incident_views }),
    ])
    chart('chart-response', [
      { label: 'Avg ms', stroke: '#0e7490', width: 2 },
      { label: 'p95 ms', stroke: '#c2410c', width: 2 },
    ], [
      r.daily.map(function (d) { return nul(d.avg_response_ms) }),
      r.daily.map(function (d) { return nul(d.p95_response_ms) }),
    ])
  }

  function load() {
    var seq = ++loadSeq
    showError('load-error', '')
    $('range-label').textContent = 'Loading…'
    fetch(reportUrl(), { credentials: 'same-origin', headers: { accept: 'application/json' } })
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

  // ---- share links (owner only) ----
  var tokensBase = '/user/analytics/' + pageId + '/tokens'
  function fmtTime(iso) { return iso ? iso.replace('T', ' ').slice(0, 16) + ' UTC' : '–' }

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

  load()
})()
