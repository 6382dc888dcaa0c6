import { Elysia, t } from 'elysia'
import { textAnswer } from '../../http/schemas.ts'
import { servePrepared } from '../../lib/http-cache.ts'
import { WIDGET_PATH, type WidgetScript } from './script.ts'

export function widgetRoutes(widget: WidgetScript) {
  return new Elysia().get(
    WIDGET_PATH,
    async ({ request }) =>
      servePrepared(await widget.script(request.headers.get('accept-encoding')), request.headers.get('if-none-match')),
    {
      response: { 200: textAnswer('text/javascript', 'JavaScript'), 304: t.Void() },
      detail: {
        tags: ['Embeds'],
        summary: 'The live status widget script',
        description:
          'Load it with a `script` element whose `src` is this address, on any site: `src="…/static/embed/v1/status.js" data-slug="your-slug" data-theme="auto" data-show-incidents="1" data-rtm="60" data-upd="7"`. Attributes: `data-slug`, `data-theme` (auto, light, dark), `data-show-incidents` (0/1), `data-rtm` (1–240 minutes), `data-upd` (1–30 days), `data-poll-ms` (poll interval, default 60000), `data-lang` (the language of its words; default: the host page\'s `lang`, else the status page\'s language). Long cache lifetime and ETag.',
      },
    },
  )
}
