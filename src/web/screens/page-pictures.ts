/**
 * The pictures of the page list: one snapshot read per page (PageStatusService,
 * the read behind the public page's bars), never a read per component.
 */
import type { StatusPage } from '../../modules/status-pages/service.ts'
import { pagePicturesView, PICTURE_DAYS } from '../views/page-pictures.ts'
import type { ScreenDeps } from './deps.ts'

/** The stylesheet the pictures need, for the list's `head`. */
export const PICTURES_HEAD = '<link rel="stylesheet" href="/static/user/components.css">'

export async function pagePictures(deps: ScreenDeps<'pageStatus'>, pages: readonly StatusPage[]): Promise<string> {
  const items = []
  for (const page of pages) items.push({ page, snapshot: await deps.services.pageStatus.snapshot(page.id, { uptimeDays: PICTURE_DAYS }) })
  return pagePicturesView(items)
}
