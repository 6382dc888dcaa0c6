// Starts Swagger UI on /swagger. A file of its own, not an inline script: the page's CSP allows
// scripts from this origin only. The document's address is on the page (data-spec).
;(function () {
  var root = document.getElementById('swagger-ui')
  window.ui = window.SwaggerUIBundle({
    url: root.getAttribute('data-spec'),
    domNode: root,
    deepLinking: true,
    // Never send the document to the public validator (another origin): the tests validate it.
    validatorUrl: null,
    tryItOutEnabled: false,
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  })
})()
