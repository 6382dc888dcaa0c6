import { Elysia, t } from 'elysia'
import { conflictResponse, errorResponses, IdParams, sharedModels } from '../../http/schemas.ts'
import { apiKeySecurity, ownerAuth } from '../accounts/auth.ts'
import type { AccountsService } from '../accounts/service.ts'
import {
  CreateMaintenanceBody,
  CreateMaintenanceSeriesBody,
  maintenanceJson,
  MaintenanceListQuery,
  maintenanceModels,
  MaintenanceRef,
  MaintenanceUpdateBody,
  maintenanceUpdateJson,
  MaintenanceUpdateRef,
  maintenanceSeriesJson,
  maintenanceSeriesModels,
  MaintenanceSeriesRef,
  UpdateMaintenanceBody,
  UpdateMaintenanceSeriesBody,
} from './model.ts'
import type { Maintenance, MaintenanceSeriesService, MaintenancesService } from './service.ts'

const detail = (summary: string, description?: string) => ({ tags: ['Maintenances'], summary, description, security: apiKeySecurity })
const one = t.Object({ data: MaintenanceRef })

export function maintenancesRoutes(deps: { accounts: AccountsService; maintenances: MaintenancesService }) {
  const { maintenances } = deps
  const json = (window: Maintenance) => maintenanceJson(window, maintenances.now())
  return new Elysia({ prefix: '/user/api/v1/maintenances' })
    .model(sharedModels)
    .model(maintenanceModels)
    .use(ownerAuth(deps.accounts))
    .get(
      '/',
      async ({ owner, query }) => {
        const list = (await maintenances.list(owner, { pageId: query.status_page_id, limit: query.limit })).map(json)
        return { data: list, meta: { count: list.length } }
      },
      {
        query: MaintenanceListQuery,
        response: { 200: t.Object({ data: t.Array(MaintenanceRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail('List your maintenance windows, newest start first'),
      },
    )
    .post('/', async ({ owner, body, status }) => status(201, { data: json(await maintenances.create(owner, body)) }), {
      body: CreateMaintenanceBody,
      response: { 201: one, ...errorResponses },
      detail: detail(
        'Schedule a maintenance window',
        '`start_at` and `end_at` are RFC 3339 with an offset, `end_at` after `start_at`. The window is active (the page shows `under_maintenance` unless something is down or an incident is open) while now is inside it.',
      ),
    })
    .get('/:id', async ({ owner, params }) => ({ data: json(await maintenances.get(owner, params.id)) }), {
      params: IdParams,
      response: { 200: one, ...errorResponses },
      detail: detail('Get a maintenance window'),
    })
    .patch('/:id', async ({ owner, params, body }) => ({ data: json(await maintenances.update(owner, params.id, body)) }), {
      params: IdParams,
      body: UpdateMaintenanceBody,
      response: { 200: one, ...errorResponses },
      detail: detail('Change a maintenance window'),
    })
    .get(
      '/:id/updates',
      async ({ owner, params }) => {
        const list = (await maintenances.get(owner, params.id)).updates.map(maintenanceUpdateJson)
        return { data: list, meta: { count: list.length } }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Array(MaintenanceUpdateRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: detail("List a maintenance window's updates, newest first"),
      },
    )
    .post('/:id/updates', async ({ owner, params, body, status }) => status(201, { data: json(await maintenances.addUpdate(owner, params.id, body)) }), {
      params: IdParams,
      body: MaintenanceUpdateBody,
      response: { 201: one, ...errorResponses },
      detail: detail(
        'Post an update to the timeline',
        "A Markdown `message`, shown newest first on the page, in the v2 JSON (`incident_updates`), the feeds and the calendar feed (the event's SEQUENCE goes up). `status` labels it (scheduled, in_progress, verifying, completed; default the window's phase now) and does not move the window. For a recurring series, post to the occurrence (a window with `series_id`): the update belongs to that occurrence only. Subscribers are not notified of updates. Answers the window with its timeline.",
      ),
    })
    .delete(
      '/:id',
      async ({ owner, params }) => {
        await maintenances.delete(owner, params.id)
        return { data: { deleted: true } }
      },
      {
        params: IdParams,
        response: { 200: t.Object({ data: t.Object({ deleted: t.Boolean() }) }), ...errorResponses, ...conflictResponse },
        detail: detail(
          'Delete a maintenance window',
          'Cancels it: it leaves the page, history, feeds and JSON at once; the calendar feed shows it as cancelled (same UID, SEQUENCE one higher) for 30 days past the later of its end and now, so subscribed calendars remove it. Deleting an occurrence of a recurring maintenance adds its date to the series\' `exceptions` (409 when the series already skips 500 dates).',
        ),
      },
    )
}

const seriesOne = t.Object({ data: MaintenanceSeriesRef })
const seriesDetail = (summary: string, description?: string) => ({ tags: ['Maintenances'], summary, description, security: apiKeySecurity })

/** Recurring maintenance: a rule whose occurrences become maintenance windows of their own. */
export function maintenanceSeriesRoutes(deps: { accounts: AccountsService; maintenanceSeries: MaintenanceSeriesService }) {
  const { maintenanceSeries: series } = deps
  return new Elysia({ prefix: '/user/api/v1/maintenance-series' })
    .model(sharedModels)
    .model(maintenanceSeriesModels)
    .use(ownerAuth(deps.accounts))
    .get(
      '/',
      async ({ owner, query }) => {
        const list = (await series.list(owner, { pageId: query.status_page_id, limit: query.limit })).map(maintenanceSeriesJson)
        return { data: list, meta: { count: list.length } }
      },
      {
        query: MaintenanceListQuery,
        response: { 200: t.Object({ data: t.Array(MaintenanceSeriesRef), meta: t.Object({ count: t.Integer() }) }), ...errorResponses },
        detail: seriesDetail('List your recurring maintenance, newest first'),
      },
    )
    .post('/', async ({ owner, body, status }) => status(201, { data: maintenanceSeriesJson(await series.create(owner, body)) }), {
      body: CreateMaintenanceSeriesBody,
      response: { 201: seriesOne, ...errorResponses },
      detail: seriesDetail(
        'Schedule recurring maintenance',
        'A daily, weekly or monthly rule in an IANA time zone: the local start time holds across daylight-saving changes. Each occurrence becomes a maintenance window (with `series_id`) up to 60 days ahead, and puts its components under maintenance like any window. Give `until` or `count` for an end, `exceptions` for skipped dates.',
      ),
    })
    .get('/:id', async ({ owner, params }) => ({ data: maintenanceSeriesJson(await series.get(owner, params.id)) }), {
      params: IdParams,
      response: { 200: seriesOne, ...errorResponses },
      detail: seriesDetail('Get a recurring maintenance with its next occurrences'),
    })
    .patch('/:id', async ({ owner, params, body }) => ({ data: maintenanceSeriesJson(await series.update(owner, params.id, body)) }), {
      params: IdParams,
      body: UpdateMaintenanceSeriesBody,
      response: { 200: seriesOne, ...errorResponses },
      detail: seriesDetail('Change a recurring maintenance', 'Occurrences not yet started are made again from the new rule; one in progress keeps its times. `sequence` goes up by one.'),
    })
    .delete('/:id', async ({ owner, params }) => ({ data: maintenanceSeriesJson(await series.cancel(owner, params.id)) }), {
      params: IdParams,
      response: { 200: seriesOne, ...errorResponses },
      detail: seriesDetail('Cancel a recurring maintenance', 'No more occurrences (one in progress runs to its end); the series stays, cancelled, in the calendar feed.'),
    })
}
