/**
 * The Branding section of a page: palette (hex colours, as the API takes them), custom CSS where the
 * plan allows it, logo and favicon upload and removal, and the preview:
 *
 * - a sample in the page's light and dark colours, styled by /user/pages/:id/branding/preview.css
 *   (built from the palette only; /static/user/branding.js swaps it as the owner types);
 * - the real public page, after save, in a sandboxed iframe from the page's status host: the owner's
 *   CSS only ever runs there, never on the service origin that holds the session. The frame sits in
 *   a closed <details> and loads when opened (a lazy frame inside a closed <details> is never near
 *   the viewport): the screen does not wait for a whole status page to render.
 * - the uploaded logo and favicon from the service host (behind the session), as uploaded.
 */
import { html } from '../../lib/html.ts'
import type { Theme } from '../../modules/branding/palette.ts'
import type { Branding } from '../../modules/branding/service.ts'
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { errorSummary, fieldErrorText, textArea, textField, type FormState } from '../kit/forms.ts'
import { sectionNav } from './pages.ts'

export const PALETTE_FIELDS = ['primary', 'secondary', 'accent', 'background', 'text'] as const

const COLOUR_LABELS: Record<(typeof PALETTE_FIELDS)[number], { label: string; hint: string }> = {
  primary: { label: 'Primary', hint: 'The header bar.' },
  secondary: { label: 'Secondary', hint: 'Quiet text (dates, notes).' },
  accent: { label: 'Accent', hint: 'Links and focus rings.' },
  background: { label: 'Background', hint: 'Behind everything.' },
  text: { label: 'Text', hint: 'At least 4.5:1 against the background.' },
}

export const BRANDING_LABELS: Record<string, string> = {
  ...Object.fromEntries(PALETTE_FIELDS.map((key) => [key, COLOUR_LABELS[key].label])),
  custom_css: 'Custom CSS',
  logo: 'Logo',
  favicon: 'Favicon',
}

export interface BrandingViewInput {
  page: StatusPage
  branding: Branding
  form: FormState
  /** Errors of the upload forms, by kind. */
  uploadErrors?: Partial<Record<'logo' | 'favicon', string>>
  /** Origin of the page's status host (`http://slug.status.example`), where the real page lives. */
  statusOrigin: string
  /** Null when the plan allows custom CSS (and a custom favicon); else the plan's message. */
  customCssRefusal: string | null
  /** A version for the preview stylesheet and the iframe, so a save shows at once. */
  version: string
}

export const brandingForm = (branding: Branding): FormState => ({
  values: { ...branding.palette, custom_css: branding.customCss ?? '' },
  errors: {},
})

/** The owner's own image, served by the service host (the owner sees it before the status host resolves). */
const ownImageUrl = (page: StatusPage, kind: 'logo' | 'favicon', version: string) => `/user/pages/${String(page.id)}/branding/${kind}?v=${version}`

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

function sample(name: string, scheme: 'light' | 'dark', logoUrl: string | undefined): string {
  return html`<figure class="bp-figure">
  <div class="bp bp-${scheme}" data-preview="${scheme}">
    <div class="bp-head">!${logoUrl ? html`<img src="${logoUrl}" alt="">` : ''}<span>${name}</span></div>
    <div class="bp-body">
      <p>All systems operational</p>
      <p class="bp-muted">Updated 2 minutes ago</p>
      <p><span class="bp-link">Incident history</span></p>
    </div>
  </div>
  <figcaption class="bp-caption">${scheme === 'light' ? 'Light mode (your colours)' : 'Dark mode (derived from them)'}</figcaption>
</figure>`
}

function fileField(kind: 'logo' | 'favicon', label: string, hint: string, error: string | undefined, disabled: boolean): string {
  const id = `f-${kind}`
  const described = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ')
  return html`<div class="field!${error ? ' has-error' : ''}">
  <label for="${id}">${label}</label>
  <input id="${id}" name="file" type="file" accept="image/png,image/jpeg,image/svg+xml,image/x-icon,.ico" required aria-describedby="${described}"!${error ? ' aria-invalid="true"' : ''}!${disabled ? ' disabled' : ''}>
  <p class="hint" id="${id}-hint">${hint}</p>
  !${error ? html`<p class="field-error" id="${id}-error">${fieldErrorText({ values: {}, errors: { [kind]: error } }, kind, kind === 'logo' ? 'Logo' : 'Favicon')!}</p>` : ''}
</div>`
}

function imageCard(input: BrandingViewInput, kind: 'logo' | 'favicon'): string {
  const { page, branding, customCssRefusal } = input
  const current = branding[kind]
  const refused = kind === 'favicon' ? customCssRefusal : null
  const title = kind === 'logo' ? 'Logo' : 'Favicon'
  const hint =
    kind === 'logo'
      ? 'PNG, JPEG, SVG or ICO, at most 256 KB; recognised by its content. Shown in the header.'
      : 'PNG, JPEG, SVG or ICO, at most 100 KB; the icon in the browser tab.'
  const action = `/user/pages/${String(page.id)}/branding/${kind}`
  return html`<section class="card" aria-labelledby="${kind}-heading">
  <h2 id="${kind}-heading">${title}</h2>
  !${
    current
      ? html`<p>Current: ${current.type.toUpperCase()}, ${kb(current.bytes)}
  <img class="logo-thumb" src="${ownImageUrl(page, kind, input.version)}" alt="Current ${kind}"></p>`
      : html`<p class="muted">None yet${kind === 'favicon' ? ': the page shows the Lantern icon' : ''}.</p>`
  }
  !${refused ? html`<p class="form-error" id="${kind}-plan">${refused}</p>` : ''}
  <form method="post" action="${action}" enctype="multipart/form-data" class="stack" novalidate>
    !${fileField(kind, `Upload a ${kind}`, hint, input.uploadErrors?.[kind], refused !== null)}
    <button type="submit"!${refused ? ' disabled' : ''}>Upload ${kind}</button>
  </form>
  !${
    current
      ? html`<form method="post" action="${action}/delete" class="stack"><button type="submit" class="secondary">Remove ${kind}</button></form>`
      : ''
  }
</section>`
}

export function brandingView(input: BrandingViewInput): string {
  const { page, branding, form, statusOrigin, customCssRefusal } = input
  const id = String(page.id)
  const logoUrl = branding.logo ? ownImageUrl(page, 'logo', input.version) : undefined
  const colours = PALETTE_FIELDS.map((key) =>
    textField({
      name: key,
      label: COLOUR_LABELS[key].label,
      hint: `${COLOUR_LABELS[key].hint} Hex, e.g. #1f4fd1.`,
      autocomplete: 'off',
      maxLength: 200,
      state: form,
    }),
  )
  const css = customCssRefusal
    ? html`<div class="field">
  <label for="f-custom_css">Custom CSS</label>
  <textarea id="f-custom_css" rows="4" disabled aria-describedby="f-custom_css-hint">${form.values.custom_css ?? ''}</textarea>
  <p class="hint" id="f-custom_css-hint">${customCssRefusal}</p>
</div>`
    : textArea({
        name: 'custom_css',
        label: 'Custom CSS',
        hint: 'Applied on the public page only (never here). At most 50 KB; no "<" and no @import. Empty removes it.',
        rows: 8,
        state: form,
      })
  const framed = page.blocked
    ? html`<p class="error">This page is blocked by the administrator: visitors see nothing, so there is nothing to preview.</p>`
    : html`<details class="page-frame-box">
<summary>Show the public page here</summary>
!${page.visibility === 'private' ? html`<p class="hint">The page is private: the frame shows its gate, in your colours.</p>` : ''}
<iframe class="page-frame" title="The public page of ${page.name}" src="${statusOrigin}/?preview=${input.version}" sandbox loading="lazy" referrerpolicy="no-referrer"></iframe>
</details>
<p><a href="${statusOrigin}/">Open the public page</a></p>`
  return html`<h1>Branding: ${page.name}</h1>
!${sectionNav(page, 'Branding')}
<section class="card" aria-labelledby="colours-heading">
  <h2 id="colours-heading">Colours!${customCssRefusal ? '' : ' and CSS'}</h2>
  !${errorSummary(form, BRANDING_LABELS)}
  <form method="post" action="/user/pages/${id}/branding" class="stack" novalidate id="branding-form" data-preview-css="/user/pages/${id}/branding/preview.css">
    <div class="swatch-row">!${colours.join('')}</div>
    !${css}
    <button type="submit">Save branding</button>
  </form>
  <form method="post" action="/user/pages/${id}/branding/reset" class="stack"><button type="submit" class="secondary">Reset colours to the defaults</button></form>
</section>
<section class="card" aria-labelledby="preview-heading">
  <h2 id="preview-heading">Preview</h2>
  <p class="hint">The colours as visitors see them, in light and dark mode. Text is darkened or lightened where needed to stay readable (contrast ${String(branding.contrast.text_on_background)}:1 light, ${String(branding.contrast.dark_text_on_background)}:1 dark).</p>
  <p id="preview-status" class="field-error" role="status"></p>
  <div class="bp-grid">!${sample(page.name, 'light', logoUrl)}!${sample(page.name, 'dark', logoUrl)}</div>
  <h3>The public page (after saving)</h3>
  !${framed}
</section>
!${imageCard(input, 'logo')}
!${imageCard(input, 'favicon')}`
}

/** The sample's colours: custom properties of the derived light and dark themes (hex colours only). */
export function previewCss(light: Theme, dark: Theme): string {
  const vars = (theme: Theme) =>
    `--bp-bg:${theme.background};--bp-surface:${theme.surface};--bp-border:${theme.border};--bp-text:${theme.text};` +
    `--bp-muted:${theme.muted};--bp-accent:${theme.accent};--bp-primary:${theme.primary};--bp-on-primary:${theme.onPrimary}`
  return `.bp-light{${vars(light)}}\n.bp-dark{${vars(dark)}}\n`
}
