// The API reference at /swagger (src/http/api-reference.ts): writes what an operation or a schema
// holds into its <details> when it opens, from the HTML strings of the page's JSON element (made
// and escaped by the server). Deep links (#/Tag/operationId, #schema-Name) open what they target.
;(function () {
  'use strict'
  var parts = null

  function render(details) {
    var index = details.getAttribute('data-part')
    var body = details.querySelector(':scope > div')
    if (index === null || !body || body.hasAttribute('data-rendered')) return
    if (!parts) parts = JSON.parse(document.getElementById('reference-parts').textContent)
    body.innerHTML = parts[Number(index)] || ''
    body.setAttribute('data-rendered', '')
  }

  // The element an address's fragment names, and every <details> around it, opened.
  function openTarget(hash) {
    if (!hash || hash.length < 2) return
    var id
    try { id = decodeURIComponent(hash.slice(1)) } catch (error) { return }
    var target = document.getElementById(id)
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === 'DETAILS') {
        node.open = true
        render(node)
      }
    }
    if (target) target.scrollIntoView()
  }

  // toggle does not bubble: listen in the capture phase.
  document.addEventListener('toggle', function (event) {
    if (event.target.tagName === 'DETAILS' && event.target.open) render(event.target)
  }, true)
  // A link to a schema from inside an operation: open the schema, then the browser scrolls to it.
  document.addEventListener('click', function (event) {
    var link = event.target.closest && event.target.closest('a[href^="#"]')
    if (link) openTarget(link.getAttribute('href'))
  })
  window.addEventListener('hashchange', function () { openTarget(location.hash) })

  var open = document.querySelectorAll('details[open]')
  for (var i = 0; i < open.length; i++) render(open[i])
  openTarget(location.hash)
})()
