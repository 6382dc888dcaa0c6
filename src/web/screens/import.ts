/**
 * The Import screen (views in views/import.ts), on the importers' own readers and ImportService,
 * the code `lantern import` runs:
 *
 *   GET  /user/import               the two forms
 *   POST /user/import/uptime-kuma   a Kuma database (multipart field `file`, at most 50 MB), then the report
 *   POST /user/import/gatus         a Gatus configuration (multipart field `file`, at most 1 MB), then the report
 *
 * The import lands in the team the person acts in; it makes pages, monitors and channels, so it
 * needs the editor's permission (`edit`, route-permissions.ts). A file that cannot be read is a 400
 * (413 past the size) with the error at its field, and nothing is written; a plan limit is the 403 of
 * the importer, shown the same way. The report is the answer of the post itself (it is no page to
 * come back to).
 */
import { Elysia, t } from 'elysia'
import { HttpError } from '../../lib/errors.ts'
import { gatusPlanFromUpload, kumaPlanFromUpload } from '../../modules/importers/uploads.ts'
import { GATUS_UPLOAD_MAX_BYTES, KUMA_UPLOAD_MAX_BYTES, KUMA_UPLOAD_PATH, type ImportPlan } from '../../modules/importers/types.ts'
import { screens, type ScreenContext } from '../kit/guard.ts'
import { importView, SOURCE_LABELS, type ImportViewInput, type UploadSource } from '../views/import.ts'
import type { ScreenDeps } from './deps.ts'

const detail = (summary: string) => ({ tags: ['User area'], summary })
const HtmlResponse = t.String({ description: 'An HTML page' })
const MB = 1024 * 1024

/** The chosen file of a multipart post, or undefined. */
function chosenFile(body: unknown): File | Blob | undefined {
  const file = body && typeof body === 'object' ? (body as Record<string, unknown>).file : undefined
  const chosen = Array.isArray(file) ? file[0] : file
  return chosen instanceof Blob ? chosen : undefined
}

export function importScreens(deps: ScreenDeps<'accounts' | 'importer'>) {
  const { services, config } = deps
  const screen = screens({ accounts: services.accounts, config })

  const page = (render: ScreenContext['render'], input: Partial<ImportViewInput> = {}, status = 200) =>
    render({ title: 'Import', crumbs: [{ label: 'Pages', href: '/user' }, { label: 'Import' }] }, importView({ kumaMaxMb: KUMA_UPLOAD_MAX_BYTES / MB, gatusMaxMb: GATUS_UPLOAD_MAX_BYTES / MB, ...input }), status)

  const upload = (source: UploadSource, plan: (bytes: Uint8Array, name: string) => ImportPlan | Promise<ImportPlan>) =>
    screen(async ({ user, body, render }) => {
      const file = chosenFile(body)
      const name = file instanceof File && file.name ? file.name.slice(0, 200) : source === 'gatus' ? 'config.yaml' : 'kuma.db'
      try {
        if (!file || (file.size === 0 && !(file instanceof File && file.name))) throw new HttpError(400, `choose the ${SOURCE_LABELS[source]} file to import`)
        const report = await services.importer.apply(user, await plan(new Uint8Array(await file.arrayBuffer()), name))
        return page(render, { report, fileName: name })
      } catch (error) {
        if (!(error instanceof HttpError) || ![400, 403, 409, 413].includes(error.status)) throw error
        return page(render, { errors: { [source]: error.message } }, error.status)
      }
    })

  return new Elysia()
    .get('/user/import', screen(({ render }) => page(render)), {
      response: { 200: HtmlResponse },
      detail: detail('Import from Uptime Kuma or Gatus: the forms'),
    })
    .post(KUMA_UPLOAD_PATH, upload('uptime-kuma', kumaPlanFromUpload), {
      response: { 200: HtmlResponse, 400: HtmlResponse, 403: HtmlResponse, 413: HtmlResponse },
      detail: detail('Import an Uptime Kuma database (multipart form post, field `file`); answers the report'),
    })
    .post('/user/import/gatus', upload('gatus', gatusPlanFromUpload), {
      response: { 200: HtmlResponse, 400: HtmlResponse, 403: HtmlResponse, 413: HtmlResponse },
      detail: detail('Import a Gatus configuration (multipart form post, field `file`); answers the report'),
    })
}
