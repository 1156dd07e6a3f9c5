#!/usr/bin/env bash
# The package as a user meets it: `npm pack`, install the tarball into an empty project, and there
#   - `npx petstore-sandbox start --port 0` serves the API (a 200 with a demo key);
#   - a TypeScript file importing 'petstore-sandbox' type-checks against the shipped .d.ts files
#     (strict, NodeNext) and runs.
# Run it as `npm run check:package`: npm puts the project's pinned Node 24 (the `node`
# devDependency) first on PATH, so the empty project runs on it too.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill -- "-$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 22 ]; then
  echo "check-package: Node $(node -v) is too old; run it as \`npm run check:package\`" >&2
  exit 1
fi

echo "== npm pack"
tarball="$(cd "$repo" && npm pack --silent --pack-destination "$work" | tail -n 1)"
echo "$tarball: $(tar -tzf "$work/$tarball" | wc -l) files"
if tar -tzf "$work/$tarball" | grep -E '^package/(src|test|examples|bench)/' >/dev/null; then
  echo "check-package: the tarball ships sources or tests" >&2
  exit 1
fi

# msw is the app's and the sandbox's one msw: a peer, never a dependency of its own beside the app's.
peers="$(tar -xzOf "$work/$tarball" package/package.json | node -e "let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => { const p = JSON.parse(s); console.log(p.peerDependencies?.msw, p.dependencies?.msw) })")"
[ "$peers" = "^3 undefined" ] || { echo "check-package: msw must be a peer dependency (^3) and no dependency, not: $peers" >&2; exit 1; }

echo "== install into an empty project (Node $(node -v))"
mkdir "$work/project"
cd "$work/project"
printf '{ "name": "sandbox-user", "private": true, "type": "module" }\n' > package.json
npm install --silent --no-audit --no-fund --prefer-offline "$work/$tarball"

echo "== npx petstore-sandbox start --port 0"
# Its own process group, so the cleanup stops npx and the server it runs, and nothing else. The
# log exists before the background job opens it, so the first read below cannot fail under set -e.
: > "$work/server.log"
setsid npx --no-install petstore-sandbox start --port 0 --log off > "$work/server.log" 2>&1 &
server_pid=$!
url=""
for _ in $(seq 1 150); do
  url="$(sed -n 's/^Listening on \(http[^ ]*\).*/\1/p' "$work/server.log" | head -n 1)"
  [ -n "$url" ] && break
  sleep 0.2
done
if [ -z "$url" ]; then
  echo "check-package: the server did not start:" >&2
  cat "$work/server.log" >&2
  exit 1
fi
status="$(node -e "fetch(process.argv[1] + '/pets?limit=1', { headers: { Authorization: 'Bearer sandbox-free-key' } }).then((r) => console.log(r.status))" "$url")"
echo "GET $url/pets?limit=1 -> $status"
[ "$status" = 200 ] || { echo "check-package: expected 200" >&2; exit 1; }
# The pages work from the tarball alone: their scripts are compiled into dist/, Swagger UI comes
# from the swagger-ui-dist dependency.
for page in / /openapi.yaml /postman.json /reference /assets/reference.js /assets/swagger-ui/swagger-ui-bundle.js; do
  page_status="$(node -e "fetch(process.argv[1]).then((r) => console.log(r.status))" "${url%/v1}$page")"
  echo "GET ${url%/v1}$page -> $page_status"
  [ "$page_status" = 200 ] || { echo "check-package: expected 200 for $page" >&2; exit 1; }
done
kill -TERM -- "-$server_pid"
wait "$server_pid" || true
server_pid=""

echo "== import { createSandbox } from 'petstore-sandbox' in TypeScript"
cat > tsconfig.json <<'JSON'
{
  "compilerOptions": {
    "target": "ES2023",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "lib": ["ES2023", "DOM"],
    "types": [],
    "strict": true,
    "noUncheckedIndexedAccess": true,
    "verbatimModuleSyntax": true,
    "erasableSyntaxOnly": true,
    "noEmit": true
  },
  "files": ["use-sandbox.ts"]
}
JSON
cat > use-sandbox.ts <<'TS'
import { createSandbox, PET_STATUSES, type ApiError, type NewPet, type Pet, type PetStatus, type Sandbox } from 'petstore-sandbox'

const sandbox: Sandbox = createSandbox({ seed: 3, pets: 5 })
await sandbox.ready()
const first: Pet | undefined = sandbox.pets.all()[0]
const newPet: NewPet = { name: 'Biscuit', categoryId: 2, status: 'pending' }
const created: Pet = await sandbox.pets.create(newPet)
const statuses: readonly PetStatus[] = PET_STATUSES
const error: ApiError = { code: 'not_found', message: 'pet 9 does not exist', status: 404 }
sandbox.quota.set('sandbox-free-key', { remaining: 0 })

// The types are real, not `any`: each line below must fail the type check.
// @ts-expect-error 'adopted' is no PetStatus
const wrongStatus: PetStatus = 'adopted'
// @ts-expect-error a NewPet needs a categoryId
const incomplete: NewPet = { name: 'Rex' }
// @ts-expect-error ApiError has a numeric status
const wrongError: ApiError = { code: 'x', message: 'y', status: '404' }
void [wrongStatus, incomplete, wrongError]

console.log(JSON.stringify({ handlers: sandbox.handlers.length, first: first?.id, created: created.id, statuses, error: error.code, remaining: sandbox.quota.get('sandbox-free-key').minute.remaining }))
TS
"$repo/node_modules/.bin/tsc" -p tsconfig.json
echo "type check passed (typescript $("$repo/node_modules/.bin/tsc" -v | cut -d' ' -f2), the tarball's .d.ts files)"
output="$(node use-sandbox.ts)"
echo "node use-sandbox.ts -> $output"
expected='{"handlers":1,"first":1,"created":6,"statuses":["available","pending","sold"],"error":"not_found","remaining":0}'
[ "$output" = "$expected" ] || { echo "check-package: expected $expected" >&2; exit 1; }
echo "check-package: ok"
