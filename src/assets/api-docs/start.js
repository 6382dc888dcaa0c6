// Starts Swagger UI on /swagger. A file of its own, not an inline script: the page's CSP allows
// scripts from this origin only. The document's address is on the page (data-spec).
;(function () {
  // Swagger UI 5.33+ virtualises the operation list once tags + operations reach 150 (Lantern has
  // ~170): only the entries near the viewport are in the page, so find-in-page, screen readers
  // and anything reading the page miss the rest, and which ones are there depends on layout timing
  // (swagger-ui issue 11056, no option to turn it off). This plugin puts back the full list that
  // Swagger UI itself draws below that threshold: same components, every operation in the page.
  function FullOperationList(system) {
    var h = system.React.createElement
    function Operations(props) {
      var specSelectors = props.specSelectors
      var getComponent = props.getComponent
      var tagged = specSelectors.taggedOperations()
      if (tagged.size === 0) return h('h3', null, 'No operations defined in spec!')
      var methods = specSelectors.validOperationMethods()
      var OperationTag = getComponent('OperationTag')
      var OperationContainer = getComponent('OperationContainer', true)
      var sections = tagged
        .map(function (tagObj, tag) {
          var operations = tagObj
            .get('operations')
            .filter(function (op) {
              return methods.indexOf(op.get('method')) !== -1
            })
            .map(function (op) {
              var path = op.get('path')
              var method = op.get('method')
              return h(OperationContainer, { key: path + '-' + method, specPath: op.get('specPath'), op: op, path: path, method: method, tag: tag })
            })
            .toArray()
          return h(
            OperationTag,
            {
              key: 'operation-' + tag,
              tagObj: tagObj,
              tag: tag,
              oas3Selectors: props.oas3Selectors,
              layoutSelectors: props.layoutSelectors,
              layoutActions: props.layoutActions,
              getConfigs: props.getConfigs,
              getComponent: getComponent,
              specUrl: specSelectors.url(),
            },
            h('div', { className: 'operation-tag-content' }, operations),
          )
        })
        .valueSeq()
        .toArray()
      return h('div', null, sections)
    }
    return { components: { operations: Operations } }
  }

  // Accessibility fixes on Swagger UI's own markup (axe): the servers <select> sits in an empty
  // <label>, so it gets a name; an operation's summary is a <button> holding the deep link <a>
  // (nested-interactive), so the path inside it is plain text. Deep links still work: opening an
  // operation puts its address in the address bar, and loading that address opens it.
  function AccessibleMarkup(system) {
    var h = system.React.createElement
    return {
      wrapComponents: {
        Servers: function (Original) {
          return function NamedServers(props) {
            system.React.useEffect(function () {
              var select = document.getElementById('servers')
              if (select) select.setAttribute('aria-label', 'Server')
            })
            return h(Original, props)
          }
        },
        OperationSummaryPath: function (Original) {
          return function PlainSummaryPath(props) {
            return h(Original, Object.assign({}, props, { operationProps: props.operationProps.set('isDeepLinkingEnabled', false) }))
          }
        },
      },
    }
  }

  // Swagger UI's stylesheet carries a dark theme under html.dark-mode: follow the system's scheme.
  var dark = window.matchMedia('(prefers-color-scheme: dark)')
  function followScheme() {
    document.documentElement.classList.toggle('dark-mode', dark.matches)
  }
  followScheme()
  dark.addEventListener('change', followScheme)

  var root = document.getElementById('swagger-ui')
  window.ui = window.SwaggerUIBundle({
    url: root.getAttribute('data-spec'),
    domNode: root,
    deepLinking: true,
    // Never send the document to the public validator (another origin): the tests validate it.
    validatorUrl: null,
    tryItOutEnabled: false,
    presets: [window.SwaggerUIBundle.presets.apis],
    plugins: [FullOperationList, AccessibleMarkup],
    layout: 'BaseLayout',
  })
})()
