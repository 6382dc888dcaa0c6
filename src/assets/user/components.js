// Components screen: drag a component within its group to reorder; on drop the new order is posted
// through the same form the server offers (…/components/order). Move up / Move down buttons remain
// the keyboard and no-JavaScript path; this file adds pointer dragging and puts the focus back.
(() => {
  // After a move (…/components#c-12) focus the moved component: the keyboard user goes on from there.
  const target = /^#c-\d+$/.test(location.hash) ? document.getElementById(location.hash.slice(1)) : null
  if (target && !document.querySelector('[aria-invalid="true"]')) target.focus()
  const form = document.getElementById('order-form')
  if (!(form instanceof HTMLFormElement)) return
  const input = form.querySelector('input[name="ids"]')
  let dragged = null
  for (const item of document.querySelectorAll('.comp[data-id]')) {
    item.setAttribute('draggable', 'true')
    item.addEventListener('dragstart', (event) => {
      dragged = item
      item.classList.add('dragging')
      event.dataTransfer?.setData('text/plain', item.dataset.id ?? '')
    })
    item.addEventListener('dragend', () => item.classList.remove('dragging'))
    item.addEventListener('dragover', (event) => {
      // Only within the same group: the public page keeps a group's members together.
      if (dragged && dragged !== item && dragged.parentElement === item.parentElement) event.preventDefault()
    })
    item.addEventListener('drop', (event) => {
      event.preventDefault()
      if (!dragged || dragged === item || dragged.parentElement !== item.parentElement) return
      const list = [...item.parentElement.children]
      const before = list.indexOf(dragged) > list.indexOf(item)
      item.parentElement.insertBefore(dragged, before ? item : item.nextSibling)
      input.value = [...document.querySelectorAll('.comp[data-id]')].map((el) => el.dataset.id).join(',')
      // The prototype's submit: a field named `submit` would shadow the form's own.
      HTMLFormElement.prototype.submit.call(form)
    })
  }
})()
