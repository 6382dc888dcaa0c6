import { Elysia, t } from 'elysia'
import { conflictResponse, errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import {
  CreateIncidentBody,
  FromTemplateBody,
  incidentJson,
  incidentModels,
  IncidentRef,
  IncidentTemplateRef,
  IncidentListQuery,
  IncidentUpdateBody,
  PostmortemBody,
  PublishPostmortemBody,
  TemplateBody,
  templateJson,
  UpdateIncidentBody,
} from './model.ts'
import type { IncidentsService } from './service.ts'

const detail = (tag: string, summary: string, description?: string) => ({ tags: [tag], summary, description, security: apiKeySecurity })
const one = t.Object({ data: IncidentRef })
const oneTemplate = t.Object({ data: IncidentTemplateRef })
const deleted = t.Object({ data: t.Object({ deleted: t.Boolean() }) })
const STATE_NOTE =
  'The state is `state` (investigating, identified, monitoring, resolved) or its alias `incident_state_id` ("1".."4").'

export function incidentsRoutes(deps: { accounts: AccountsService; incidents: IncidentsService }) {
  const { incidents } = deps
  return new Elysia({ prefix: '/user/api/v1' })
    .model(sharedModels)
    .model(incidentModels)
    .use(ownerAuth(deps.accounts))
    .get(
      '/incidents',
      async ({ owner, query }) => {
        const list = (await incidents.list(owner, { pageId: query.status_page_id, state: query.state, limit: query.limit })).map(incidentJson)
        return { data: list, meta: { count: list.length } }
      },
      {
        query: IncidentListQuery,
        response: { 200: t.Object({ data: t.Array(IncidentRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('Incidents', 'List your incidents, newest first', 'Filter by `status_page_id` and `state`; `limit` 1–200 (default 50).'),
      },
    )
    .post('/incidents', async ({ owner, body, status }) => status(201, { data: incidentJson(await incidents.create(owner, body)) }), {
      body: CreateIncidentBody,
      response: { 201: one, ...errorResponses },
      detail: detail(
        'Incidents',
        'Open an incident',
        `Give \`status_page_id\` or \`component_id\`; \`component_ids\` lists the affected components (none: the whole page). ${STATE_NOTE} Default: investigating.`,
      ),
    })
    .get('/incidents/:id', async ({ owner, params }) => ({ data: incidentJson(await incidents.get(owner, params.id)) }), {
      params: IdParams,
      response: { 200: one, ...errorResponses },
      detail: detail('Incidents', 'Get an incident with its timeline'),
    })
    .patch('/incidents/:id', async ({ owner, params, body }) => ({ data: incidentJson(await incidents.update(owner, params.id, body)) }), {
      params: IdParams,
      body: UpdateIncidentBody,
      response: { 200: one, ...errorResponses },
      detail: detail('Incidents', 'Change an incident', `${STATE_NOTE} A new state or a message adds a timeline entry.`),
    })
    .delete(
      '/incidents/:id',
      async ({ owner, params }) => {
        await incidents.delete(owner, params.id)
        return { data: { deleted: true } }
      },
      { params: IdParams, response: { 200: deleted, ...errorResponses }, detail: detail('Incidents', 'Delete an incident') },
    )
    .post(
      '/incidents/:id/updates',
      async ({ owner, params, body, status }) => status(201, { data: incidentJson(await incidents.addUpdate(owner, params.id, body)) }),
      {
        params: IdParams,
        body: IncidentUpdateBody,
        response: { 201: one, ...errorResponses },
        detail: detail('Incidents', 'Post an update to the timeline', `\`message\` and/or a new state (at least one). ${STATE_NOTE}`),
      },
    )
    .put(
      '/incidents/:id/postmortem',
      async ({ owner, params, body }) => ({ data: incidentJson(await incidents.savePostmortem(owner, params.id, body)) }),
      {
        params: IdParams,
        body: PostmortemBody,
        response: { 200: one, ...errorResponses, ...conflictResponse },
        detail: detail(
          'Incidents',
          'Write the postmortem of a resolved incident',
          'Markdown in `body`. A draft until published (409 while the incident is open); an empty `body` removes a draft. A published postmortem changes at once, announcing nothing, and cannot be emptied.',
        ),
      },
    )
    .post(
      '/incidents/:id/postmortem/publish',
      async ({ owner, params, body }) => ({ data: incidentJson(await incidents.publishPostmortem(owner, params.id, body ?? {})) }),
      {
        params: IdParams,
        body: t.Optional(PublishPostmortemBody),
        response: { 200: one, ...errorResponses, ...conflictResponse },
        detail: detail(
          'Incidents',
          'Publish the postmortem',
          'Shows the draft on the page, the incident page and the feeds, and sends `incident.postmortem` to the channels listening to it; with `notify_subscribers` the page\'s subscribers get it too. 409 without a draft or when already published.',
        ),
      },
    )
    .get(
      '/incident-templates',
      async ({ owner }) => {
        const list = (await incidents.listTemplates(owner)).map(templateJson)
        return { data: list, meta: { count: list.length } }
      },
      {
        response: { 200: t.Object({ data: t.Array(IncidentTemplateRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('Incident templates', 'List your incident templates'),
      },
    )
    .post(
      '/incident-templates',
      async ({ owner, body, status }) => status(201, { data: templateJson(await incidents.createTemplate(owner, body)) }),
      {
        body: TemplateBody,
        response: { 201: oneTemplate, ...errorResponses },
        detail: detail(
          'Incident templates',
          'Create an incident template',
          '`name` and `title` are required. `{{component}}` and `{{page}}` in the title and message are replaced by plain substitution when an incident is opened from the template.',
        ),
      },
    )
    .get('/incident-templates/:id', async ({ owner, params }) => ({ data: templateJson(await incidents.getTemplate(owner, params.id)) }), {
      params: IdParams,
      response: { 200: oneTemplate, ...errorResponses },
      detail: detail('Incident templates', 'Get an incident template'),
    })
    .patch(
      '/incident-templates/:id',
      async ({ owner, params, body }) => ({ data: templateJson(await incidents.updateTemplate(owner, params.id, body)) }),
      {
        params: IdParams,
        body: TemplateBody,
        response: { 200: oneTemplate, ...errorResponses },
        detail: detail('Incident templates', 'Change an incident template'),
      },
    )
    .delete(
      '/incident-templates/:id',
      async ({ owner, params }) => {
        await incidents.deleteTemplate(owner, params.id)
        return { data: { deleted: true } }
      },
      { params: IdParams, response: { 200: deleted, ...errorResponses }, detail: detail('Incident templates', 'Delete an incident template') },
    )
    .post(
      '/incident-templates/:id/incidents',
      async ({ owner, params, body, status }) =>
        status(201, { data: incidentJson(await incidents.createFromTemplate(owner, params.id, body)) }),
      {
        params: IdParams,
        body: FromTemplateBody,
        response: { 201: one, ...errorResponses },
        detail: detail(
          'Incident templates',
          'Open an incident from a template',
          `Give \`status_page_id\` or \`component_id\` and optionally \`component_ids\`. \`title\` and \`message\`, when given, replace the template's (the web app sends the form as edited). \`{{component}}\` becomes the affected components' names ("all systems" when none), \`{{page}}\` the page name. ${STATE_NOTE}`,
        ),
      },
    )
}
