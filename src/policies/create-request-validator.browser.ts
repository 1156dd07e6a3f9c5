// The browser build's request validator, swapped in for create-request-validator.js by the
// package.json "browser" field: @stoplight/prism-http does not run in a browser (its URI and path
// helpers need Node's \`url\` and \`path\`, and it weighs 1.6 MB minified), so the browser build
// validates with the Ajv validator alone, which words its 400s as prism does.
export { createAjvRequestValidator as createRequestValidator } from './create-ajv-request-validator.js'
