// Lantern web app: passkeys (WebAuthn). Adding one on the Passkeys screen, signing in with one on
// the login page, and using one as the second step of a sign-in. The server makes the options and
// checks the answers; this script only carries them between it and navigator.credentials, turning
// WebAuthn's binary fields into base64url and back. Buttons stay hidden where WebAuthn is missing.
(() => {
  if (!window.PublicKeyCredential || !navigator.credentials) return

  const toBytes = (text) => {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4)
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
  }
  const toText = (buffer) => {
    let binary = ''
    for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte)
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
  }
  const withIds = (list) => (list ?? []).map((item) => ({ ...item, id: toBytes(item.id) }))

  const post = async (path, body) => {
    const response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body ?? {}),
    })
    // A session that ended answers with the login page (a redirect), not JSON.
    if (response.redirected) throw new Error('you are no longer logged in: reload the page and log in again')
    const answer = await response.json().catch(() => ({}))
    if (!response.ok) throw new Error(typeof answer.error === 'string' ? answer.error : `the server answered ${response.status}`)
    return answer
  }

  const credentialJson = (credential) => {
    const r = credential.response
    const response = { clientDataJSON: toText(r.clientDataJSON) }
    if (r.attestationObject) {
      response.attestationObject = toText(r.attestationObject)
      if (typeof r.getTransports === 'function') response.transports = r.getTransports()
    } else {
      response.authenticatorData = toText(r.authenticatorData)
      response.signature = toText(r.signature)
      if (r.userHandle && r.userHandle.byteLength > 0) response.userHandle = toText(r.userHandle)
    }
    const json = { id: credential.id, rawId: toText(credential.rawId), type: credential.type, response, clientExtensionResults: credential.getClientExtensionResults() }
    if (credential.authenticatorAttachment) json.authenticatorAttachment = credential.authenticatorAttachment
    return json
  }

  const create = async (options) => {
    const publicKey = { ...options, challenge: toBytes(options.challenge), user: { ...options.user, id: toBytes(options.user.id) }, excludeCredentials: withIds(options.excludeCredentials) }
    return credentialJson(await navigator.credentials.create({ publicKey }))
  }
  const get = async (options) => {
    const publicKey = { ...options, challenge: toBytes(options.challenge), allowCredentials: withIds(options.allowCredentials) }
    return credentialJson(await navigator.credentials.get({ publicKey }))
  }

  const say = (id, text) => {
    const region = document.getElementById(id)
    if (region) region.innerHTML = ''
    if (region && text) {
      const p = document.createElement('p')
      p.className = 'field-error'
      p.textContent = text
      region.append(p)
    }
  }
  const why = (error) =>
    error && error.name === 'NotAllowedError' ? 'The passkey was not used (cancelled or timed out). Try again.' : `That did not work: ${error && error.message ? error.message : 'unknown error'}.`

  const run = (button, status, ceremony) => {
    button.hidden = false
    button.addEventListener('click', async (event) => {
      event.preventDefault()
      button.disabled = true
      say(status, '')
      try {
        const { location } = await ceremony()
        window.location.assign(location)
      } catch (error) {
        say(status, why(error))
        button.disabled = false
      }
    })
  }

  for (const button of document.querySelectorAll('[data-passkey-action]')) {
    const action = button.dataset.passkeyAction
    const next = button.dataset.next
    if (action === 'register') {
      const form = button.form
      run(button, 'passkey-add-status', async () => {
        const name = form.elements.namedItem('name').value.trim()
        const password = form.elements.namedItem('password')
        if (!name) throw new Error('give the passkey a name first')
        if (!password.value) throw new Error('type your password first')
        const options = await post('/user/passkeys/options', { password: password.value })
        password.value = ''
        return post('/user/passkeys', { name, response: await create(options) })
      })
      form.addEventListener('submit', (event) => event.preventDefault())
    } else if (action === 'sign-in') {
      run(button, 'passkey-sign-in-status', async () => post('/user/passkeys/sign-in', { response: await get(await post('/user/passkeys/sign-in/options')), next }))
    } else if (action === 'second-factor') {
      run(button, 'passkey-second-factor-status', async () => post('/user/login/two-factor/passkey', { response: await get(await post('/user/login/two-factor/passkey/options')), next }))
    }
  }
})()
