import { DAY_LEVEL_TONES, toneVariables } from '../status-pipeline/colours.ts'
import { DISPLAY_STATUSES } from '../status-pipeline/status.ts'

/**
 * The stylesheet every status page shares, served as a static asset from the page's own host
 * (`/_lantern/page.css`), so pages need no inline styles and work under a strict CSP. The brand
 * colours come from the per-page theme stylesheet (custom properties; these are the fallbacks);
 * the status colours (`--st-<status>`) from the one table of status-pipeline/colours.ts.
 */
export const PAGE_CSS = String.raw`
:root{--bg:#fff;--surface:#fff;--border:#d1d9e0;--text:#1f2328;--muted:#59636e;--accent:#0a66d8;--primary:#1f4fd1;--on-primary:#fff;
${toneVariables('light')};--radius:8px;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{${toneVariables('dark')}}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;overflow-wrap:break-word}
a{color:var(--accent)}
a:focus-visible,[tabindex]:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.wrap{max-width:52rem;margin:0 auto;padding:0 1rem}
.skip{position:absolute;left:-999px;top:0;background:var(--surface);padding:.5rem 1rem;z-index:10}
.skip:focus{left:1rem}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
header.site{background:var(--primary);color:var(--on-primary);padding:1.25rem 0}
header.site .wrap{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
header.site a{color:var(--on-primary)}
.brand{display:flex;align-items:center;gap:.75rem;text-decoration:none;min-width:0}
/* The logo sits on a plate of the colour that reads on the brand colour: a logo in the brand colour stays visible. */
.brand img{max-height:2.5rem;max-width:10rem;width:auto;background:var(--on-primary);padding:.2rem;border-radius:6px}
.brand h1{margin:0;font-size:1.5rem;line-height:1.2}
header.site nav{display:flex;flex-wrap:wrap;gap:.25rem 1rem;font-size:.95rem}
main.wrap{padding-top:1.5rem;padding-bottom:2rem}
section{margin:0 0 2rem}
h2{font-size:1.2rem;margin:0 0 .75rem}
h3{font-size:1.05rem;margin:0;overflow-wrap:break-word}
.banner{display:flex;align-items:center;gap:.75rem;border-radius:var(--radius);padding:1rem 1.25rem;font-size:1.25rem;font-weight:600;margin:0 0 2rem;color:#fff;background:var(--st-operational)}
.banner::before{content:"";flex:none;width:1rem;height:1rem;border-radius:50%;background:currentColor;opacity:.9}
${statusRules('.banner--', 'background')}
@media (prefers-color-scheme:dark){.banner{color:#0d1117}}
.card{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius)}
.components{list-style:none;margin:0;padding:0}
.group,.components.card{margin:0 0 1rem}
.group > .group__head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5rem;align-items:baseline;padding:.75rem 1rem;border-bottom:1px solid var(--border)}
.component{padding:.85rem 1rem;border-top:1px solid var(--border)}
.components > .component:first-child{border-top:0}
.component__head{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .5rem}
.component__name{font-weight:600;margin-right:auto}
.type{font-size:.7rem;font-weight:700;letter-spacing:.04em;border:1px solid var(--border);color:var(--muted);border-radius:4px;padding:0 .35rem;line-height:1.5}
.status{font-size:.9rem;font-weight:600}
${statusRules('.status--', 'color')}
.bars{display:flex;gap:2px;list-style:none;margin:.6rem 0 .25rem;padding:0;height:2.25rem}
.bars > li{position:relative;flex:1 1 0;min-width:0;border-radius:2px;background:var(--st-no_data)}
${Object.entries(DAY_LEVEL_TONES).map(([level, tone]) => `.bars > .${level}{background:var(--st-${tone})}`).join('\n')}
.bars > li:hover,.bars > li:focus{filter:brightness(.85)}
.tip{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.bars > li:hover > .tip,.bars > li:focus > .tip{clip:auto;width:max-content;max-width:16rem;height:auto;overflow:visible;white-space:normal;z-index:5;bottom:calc(100% + 6px);left:50%;transform:translateX(-50%);background:var(--text);color:var(--bg);font-size:.8rem;line-height:1.35;padding:.35rem .5rem;border-radius:4px;box-shadow:0 2px 8px rgb(0 0 0/.25)}
.bars > li:nth-child(-n+10):hover > .tip,.bars > li:nth-child(-n+10):focus > .tip{left:0;transform:none}
.bars > li:nth-last-child(-n+10):hover > .tip,.bars > li:nth-last-child(-n+10):focus > .tip{left:auto;right:0;transform:none}
.uptime__legend{display:flex;justify-content:space-between;gap:.5rem;font-size:.8rem;color:var(--muted)}
.uptime__legend .pct{color:var(--text);font-weight:600}
.vendor{margin:.25rem 0 .35rem;font-size:.8rem;color:var(--muted)}
.component__description{margin:.2rem 0 .35rem;font-size:.85rem;color:var(--muted)}
.page-description{margin:0 0 1rem}
.vendor__incidents{margin:0 0 .35rem;padding-left:1.2rem;font-size:.85rem}
.status--unknown{color:var(--muted)}
.budget{margin:.35rem 0 0;font-size:.8rem;color:var(--muted);display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .5rem}
.budget meter{width:5rem;height:.6rem}
.days-30{display:none}
@media (max-width:36rem){.bars > li:nth-child(-n+60){display:none}.days-90{display:none}.days-30{display:inline}}
.incident,.maintenance{padding:1rem;margin:0 0 1rem;border-left:4px solid var(--st-major_outage)}
.maintenance{border-left-color:var(--st-under_maintenance)}
.incident--resolved{border-left-color:var(--st-operational)}
.incident h3 a{color:inherit}
.meta{color:var(--muted);font-size:.875rem;margin:.25rem 0 0}
.timeline{list-style:none;margin:.75rem 0 0;padding:0}
.timeline > li{margin:.5rem 0 0;padding:.5rem 0 0;border-top:1px dashed var(--border)}
.timeline .state{font-weight:700}
.message{margin:.25rem 0 0;overflow-wrap:anywhere}
.message > :first-child{margin-top:0}
.message > :last-child{margin-bottom:0}
.message p,.message ul,.message ol,.message pre,.message blockquote{margin:.4rem 0}
.message pre{overflow-x:auto;padding:.5rem;background:var(--border);border-radius:4px}
.message blockquote{padding:0 0 0 .75rem;border-left:3px solid var(--border)}
.postmortem{margin:.75rem 0 0;padding:.75rem 0 0;border-top:1px solid var(--border)}
.postmortem h3{margin:0}
.history-day{margin:0 0 1.25rem}
.history-day > h3{border-bottom:1px solid var(--border);padding:0 0 .25rem;margin:0 0 .5rem}
.history-day .none{color:var(--muted);margin:0}
.pager{display:flex;justify-content:space-between;gap:1rem}
footer{color:var(--muted);font-size:.875rem;padding:1rem 0 2rem;border-top:1px solid var(--border)}
footer .wrap{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;justify-content:space-between}
.languages ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
.zone p{margin:0 0 .25rem}
.gate{max-width:24rem;margin:3rem auto;padding:1.5rem}
.gate h1{font-size:1.4rem;margin:0 0 .5rem}
.gate label{display:block;font-weight:600;margin:1rem 0 .25rem}
.gate input{width:100%;font:inherit;padding:.55rem .65rem;border:1px solid var(--muted);border-radius:6px;background:var(--bg);color:var(--text)}
.gate button{margin-top:1rem;font:inherit;font-weight:600;padding:.55rem 1.1rem;border:0;border-radius:6px;background:var(--primary);color:var(--on-primary);cursor:pointer}
.alert{border-left:4px solid var(--st-major_outage);padding:.5rem .75rem;margin:1rem 0 0;background:var(--surface)}
.plain{max-width:32rem;margin:4rem auto;padding:0 1rem;text-align:center}
.subscribe fieldset{border:0;padding:0;margin:1rem 0 0;min-width:0}
.subscribe legend{font-weight:600;padding:0}
.subscribe .check{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.35rem 0}
.subscribe .check input{width:auto}
.subscribe .hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.subscribe .secondary{background:var(--surface);color:var(--text);border:1px solid var(--muted)}
.subscribe .hint{color:var(--muted);font-size:.875rem;margin:.25rem 0 0}
`

/** `<prefix><status>{<property>:var(--st-<status>)}` for each of the five statuses. */
function statusRules(prefix: string, property: string): string {
  return DISPLAY_STATUSES.map((status) => `${prefix}${status}{${property}:var(--st-${status})}`).join('\n')
}
