/**
 * Static files of the user area and the analytics dashboard, served from our own origin (no CDN):
 * the stylesheet, the dashboard scripts (ES modules) and uPlot. Loaded once, pre-encoded with an ETag.
 */
// Imported as text so that they travel inside the compiled binary (README: "Static files in the binary").
import dashboardJs from '../assets/analytics/dashboard.js' with { type: 'text' }
import scalesJs from '../assets/analytics/scales.js' with { type: 'text' }
import userCss from '../assets/user/user.css' with { type: 'text' }
import userJs from '../assets/user/app.js' with { type: 'text' }
import copyJs from '../assets/user/copy.js' with { type: 'text' }
import passkeysJs from '../assets/user/passkeys.js' with { type: 'text' }
import accountCss from '../assets/user/account.css' with { type: 'text' }
import brandingCss from '../assets/user/branding.css' with { type: 'text' }
import brandingJs from '../assets/user/branding.js' with { type: 'text' }
import chartsCss from '../assets/analytics/charts.css' with { type: 'text' }
import componentsCss from '../assets/user/components.css' with { type: 'text' }
import componentsJs from '../assets/user/components.js' with { type: 'text' }
import incidentsCss from '../assets/user/incidents.css' with { type: 'text' }
import monitorsCss from '../assets/user/monitors.css' with { type: 'text' }
import monitorsJs from '../assets/user/monitors.js' with { type: 'text' }
import notificationsCss from '../assets/user/notifications.css' with { type: 'text' }
import slaCss from '../assets/user/sla.css' with { type: 'text' }
import whenJs from '../assets/user/when.js' with { type: 'text' }
import toolsCss from '../assets/user/tools.css' with { type: 'text' }
import uplotJs from 'uplot/dist/uPlot.iife.min.js' with { type: 'text' }
import uplotCss from 'uplot/dist/uPlot.min.css' with { type: 'text' }
import { analyticsFormatModule, humanTimeModule } from './human-time-build.ts' with { type: 'macro' }
import { forEncoding, prepareEncoded, type EncodedResponses, type PreparedResponse } from '../lib/http-cache.ts'

interface Asset {
  text: string
  contentType: string
}

const JS = 'text/javascript; charset=utf-8'
const CSS = 'text/css; charset=utf-8'

const ASSETS: Record<string, Asset> = {
  '/static/user/user.css': { text: userCss, contentType: CSS },
  '/static/user/app.js': { text: userJs, contentType: JS },
  '/static/user/copy.js': { text: copyJs, contentType: JS },
  '/static/user/passkeys.js': { text: passkeysJs, contentType: JS },
  '/static/user/account.css': { text: accountCss, contentType: CSS },
  '/static/user/branding.css': { text: brandingCss, contentType: CSS },
  '/static/user/branding.js': { text: brandingJs, contentType: JS },
  '/static/analytics/charts.css': { text: chartsCss, contentType: CSS },
  '/static/user/components.css': { text: componentsCss, contentType: CSS },
  '/static/user/components.js': { text: componentsJs, contentType: JS },
  '/static/user/incidents.css': { text: incidentsCss, contentType: CSS },
  '/static/user/monitors.css': { text: monitorsCss, contentType: CSS },
  '/static/user/monitors.js': { text: monitorsJs, contentType: JS },
  '/static/user/notifications.css': { text: notificationsCss, contentType: CSS },
  '/static/user/sla.css': { text: slaCss, contentType: CSS },
  '/static/user/when.js': { text: whenJs, contentType: JS },
  '/static/user/tools.css': { text: toolsCss, contentType: CSS },
  '/static/analytics/dashboard.js': { text: dashboardJs, contentType: JS },
  '/static/analytics/format.js': { text: analyticsFormatModule(), contentType: JS },
  '/static/analytics/scales.js': { text: scalesJs, contentType: JS },
  // The server's formatter of dates for people, types stripped: one way of writing dates.
  '/static/analytics/human-time.js': { text: humanTimeModule(), contentType: JS },
  '/static/analytics/uplot.js': { text: uplotJs, contentType: JS },
  '/static/analytics/uplot.css': { text: uplotCss, contentType: CSS },
}

const loaded = new Map<string, Promise<EncodedResponses>>()

/** The prepared response of a static asset in the encoding the request takes, encoded once per process. */
export async function loadAsset(path: string, acceptEncoding: string | null): Promise<PreparedResponse | undefined> {
  const asset = ASSETS[path]
  if (!asset) return undefined
  let prepared = loaded.get(path)
  if (!prepared) {
    prepared = prepareEncoded(asset.text, {
      contentType: asset.contentType,
      cacheControl: 'public, max-age=3600',
      extraHeaders: { 'x-content-type-options': 'nosniff' },
    })
    loaded.set(path, prepared)
  }
  return forEncoding(await prepared, acceptEncoding)
}
