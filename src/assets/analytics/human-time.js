// What `./human-time.js` is for the server and the tests when they import format.js: the server's
// formatter of dates itself. Browsers never get this file: /static/analytics/human-time.js is that
// same source with its types stripped (src/web/human-time-build.ts).
export * from '../../lib/human-time.ts'
