/**
 * The Tools screens (views in views/tools.ts), on the service the API calls (LookupToolsService)
 * and the API's own schema (LookupBody):
 *
 *   GET  /user/tools                 the tools and the recent checks
 *   GET  /user/tools/:tool           the tool's form         POST /user/tools/:tool   run it
 *   GET  /user/tools/checks/:id      one kept result (the user's own; else 404)
 */
import { Value } from '@sinclair/typebox/value'
import { Elysia, t } from 'elysia'
import { notFound } from '../../lib/errors.ts'
import { LookupBody } from '../../modules/lookup-tools/model.ts'
import { LOOKUP_TOOLS, TOOL_LABELS, type LookupTool } from '../../modules/lookup-tools/runner.ts'
import { TooManyLookups } from '../../modules/lookup-tools/service.ts'
import { emptyForm, errorStatus, formFields, readForm, serviceErrorState, type FormState } from '../kit/forms.ts'
import { idParam, screens } from '../kit/guard.ts'
import { checkPath, checkView, TOOLS_HEAD, toolFormView, toolPath, toolsCrumbs, toolsIndexView } from '../views/tools.ts'
import type { ScreenDeps } from './deps.ts'

const HtmlResponse = t.String({ description: 'An HTML page' })
const detail = (summary: string) => ({ tags: ['User area'], summary })
const ToolPath = t.Object({ tool: t.String() })
const IdPath = t.Object({ id: t.String() })

const toolOf = (raw: string | undefined): LookupTool => {
  if (!raw || !(LOOKUP_TOOLS as readonly string[]).includes(raw)) throw notFound()
  return raw as LookupTool
}

/** Reads the form with the API's schema; selectors are typed as one line (spaces or commas). */
export function readLookupForm(body: unknown, tool: LookupTool) {
  const fields = formFields(body)
  const form = readForm(LookupBody, { ...fields, tool }, { only: ['tool', 'target'] })
  const selectors = tool === 'dkim' ? (fields.selectors ?? '').split(/[\s,]+/).map((s) => s.trim()).filter(Boolean) : []
  const errors: Record<string, string> = {}
  if (selectors.length > 0 && [...Value.Errors(LookupBody.properties.selectors, selectors)].length > 0) {
    errors.selectors = (LookupBody.properties.selectors as { error?: string }).error ?? 'selectors are not valid'
  }
  const state: FormState = { values: fields, errors: { ...form.state.errors, ...errors } }
  if (!form.ok || Object.keys(errors).length > 0) return { ok: false as const, state }
  return { ok: true as const, value: { ...form.value, ...(selectors.length ? { selectors } : {}) }, state }
}

export function toolScreens(deps: ScreenDeps<'accounts' | 'lookupTools'>) {
  const { services, config } = deps
  const tools = services.lookupTools
  const screen = screens({ accounts: services.accounts, config })
  const responses = { 200: HtmlResponse, 303: t.Void(), 400: HtmlResponse, 403: HtmlResponse, 404: HtmlResponse, 429: HtmlResponse }

  return new Elysia()
    .get(
      '/user/tools',
      screen(async ({ user, render }) => render({ title: 'Tools', crumbs: toolsCrumbs(), head: TOOLS_HEAD }, toolsIndexView(await tools.recent(user)))),
      { response: { 200: HtmlResponse }, detail: detail('Domain lookup tools and recent checks') },
    )
    .get(
      '/user/tools/checks/:id',
      screen(async ({ user, params, render }) => {
        const check = await tools.get(user, idParam(params.id))
        return render({ title: `${TOOL_LABELS[check.tool]}: ${check.target}`, crumbs: toolsCrumbs({ label: TOOL_LABELS[check.tool], href: toolPath(check.tool) }, { label: check.target }), head: TOOLS_HEAD }, checkView(check))
      }),
      { params: IdPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('One lookup result') },
    )
    .get(
      '/user/tools/:tool',
      screen(async ({ user, params, render }) => {
        const tool = toolOf(params.tool)
        return render({ title: `${TOOL_LABELS[tool]} lookup`, crumbs: toolsCrumbs({ label: TOOL_LABELS[tool] }), head: TOOLS_HEAD }, toolFormView(tool, emptyForm(), await tools.recent(user)))
      }),
      { params: ToolPath, response: { 200: HtmlResponse, 404: HtmlResponse }, detail: detail('A lookup tool') },
    )
    .post(
      '/user/tools/:tool',
      screen(async ({ user, params, body, render, redirect }) => {
        const tool = toolOf(params.tool)
        const page = async (state: FormState, status: number) =>
          render({ title: `${TOOL_LABELS[tool]} lookup`, crumbs: toolsCrumbs({ label: TOOL_LABELS[tool] }), head: TOOLS_HEAD }, toolFormView(tool, state, await tools.recent(user)), status)
        const form = readLookupForm(body, tool)
        if (!form.ok) return page(form.state, 400)
        try {
          const check = await tools.run(user, form.value)
          return redirect(checkPath(check.id), 'Looked up.')
        } catch (error) {
          if (error instanceof TooManyLookups) return page({ values: form.state.values, errors: { _form: error.message } }, 429)
          return page(serviceErrorState(error, form.state), errorStatus(error))
        }
      }),
      { params: ToolPath, response: responses, detail: detail('Run a lookup tool') },
    )
}
