/**
 * Where visitors may subscribe to a page's updates themselves: a public page that is not blocked,
 * on an instance that sends mail. Every public page of such a host links to the form.
 */
export function takesVisitorSubscriptions(page: { visibility: string; blocked: boolean }, mailEnabled: boolean): boolean {
  return page.visibility === 'public' && !page.blocked && mailEnabled
}
