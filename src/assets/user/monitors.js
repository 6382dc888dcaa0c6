// Monitor forms: a push monitor's next scheduled runs follow the cron expression and time zone as
// they are typed. The server reads the schedule (/user/monitors/cron-preview, the same rules as
// saving); this only writes its answer as text. The form works without this file.
(() => {
  const preview = document.getElementById('cron-next')
  const form = preview?.closest('form')
  if (!preview || !form) return
  const fields = ['cron', 'cron_timezone']
  let timer = 0
  let sequence = 0
  const value = (name) => {
    const input = form.elements.namedItem(name)
    return input instanceof HTMLInputElement ? input.value.trim() : ''
  }
  const update = async () => {
    const query = new URLSearchParams({ cron: value('cron'), cron_timezone: value('cron_timezone') })
    const mine = ++sequence
    try {
      const response = await fetch(`${preview.getAttribute('data-preview')}?${query}`, { credentials: 'same-origin' })
      if (mine !== sequence || !response.ok) return
      const answer = await response.json()
      const parts = []
      if (answer.ok && value('cron')) {
        const title = document.createElement('p')
        title.textContent = 'Next runs:'
        const list = document.createElement('ol')
        for (const line of answer.lines) {
          const item = document.createElement('li')
          item.textContent = line
          list.append(item)
        }
        parts.push(title, list)
      } else {
        const line = document.createElement('p')
        line.textContent = answer.lines[0] ?? ''
        parts.push(line)
      }
      preview.replaceChildren(...parts)
    } catch {
      // Offline or stopped: the last preview stays.
    }
  }
  form.addEventListener('input', (event) => {
    if (!(event.target instanceof HTMLInputElement) || !fields.includes(event.target.name)) return
    clearTimeout(timer)
    timer = setTimeout(update, 200)
  })
})()
