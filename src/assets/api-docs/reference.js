// The API reference at /swagger (src/http/api-reference.ts): writes what an operation or a schema
// holds into its <details> when it opens, from the HTML strings (made and escaped by the server) of
// the JSON its <main data-parts> names, fetched soon after the page has loaded so opening is at once;
// a <details> opened before it arrives is filled when it does. Deep links (#/Tag/operationId,
// #schema-Name) open what they target.
;(function () {
  'use strict'
  var main = document.querySelector('main[data-parts]')
  var parts = null

  function loadParts() {
    if (!parts) {
      parts = fetch(main.getAttribute('data-parts'), { credentials: 'same-origin' }).then(function (response) {
        if (!response.ok) throw new Error('HTTP ' + response.status)
        return response.json()
      })
      // A failed fetch is tried again at the next opening.
      parts.catch(function () { parts = null })
    }
    return parts
  }

  function render(details) {
    var index = details.getAttribute('data-part')
    var body = details.querySelector(':scope > div')
    if (index === null || !body || body.hasAttribute('data-rendered') || body.hasAttribute('data-loading')) return
    body.setAttribute('data-loading', '')
    loadParts().then(function (list) {
      body.innerHTML = list[Number(index)] || ''
      body.setAttribute('data-rendered', '')
    }, function () {
      var note = document.createElement('p')
      note.className = 'load-failed'
      note.textContent = 'The details did not load. Close and open this again, or read them in '
      var link = document.createElement('a')
      link.href = '/swagger/json'
      link.textContent = 'the OpenAPI document'
      note.appendChild(link)
      note.appendChild(document.createTextNode('.'))
      body.replaceChildren(note)
    }).finally(function () {
      body.removeAttribute('data-loading')
    })
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

  if (!main) return
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
  // Fetched when the reader first reaches for the page (pointer, keyboard, focus) or a second after
  // it has loaded, whichever comes first, so the fetch and its parse never compete with showing the list.
  function soon() {
    loadParts()
    for (var k = 0; k < EARLY.length; k++) document.removeEventListener(EARLY[k], soon, true)
  }
  var EARLY = ['pointerover', 'pointerdown', 'keydown', 'focusin', 'touchstart']
  for (var j = 0; j < EARLY.length; j++) document.addEventListener(EARLY[j], soon, { capture: true, passive: true })
  if (document.readyState === 'complete') setTimeout(soon, 1000)
  else window.addEventListener('load', function () { setTimeout(soon, 1000) })
})()
