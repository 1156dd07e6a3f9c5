// Generated from fixtures/admin-openapi.yaml by scripts/generate-contract.mjs. Do not edit.
// Regenerate with `npm run generate`; `npm run generate -- --check` fails when this file is stale.
import type { OpenApiDocument } from './openapi-document-type.js'

export const adminOpenapiDocument: OpenApiDocument = {
  "openapi": "3.1.0",
  "info": {
    "title": "petstore-sandbox admin API",
    "version": "1.0.0",
    "description": "Controls of a running sandbox, for a shared staging stand-in: health, state, reset, clock, quotas and bans, keys added, re-planned and revoked at runtime, injected faults, the last requests. Served under /__sandbox/ (outside the Animal Store API's /v1) only when the sandbox has an admin token (`--admin-token`, `PETSTORE_SANDBOX_ADMIN_TOKEN`, or the `adminToken` option); otherwise these paths are 404. API keys never open it. Wrong admin tokens are limited per client address (429 with Retry-After); the right token never is. The probes /healthz and /readyz are served at the origin's root, always, with no token. Every error is an Error body whose `status` equals the HTTP status.\n"
  },
  "servers": [
    {
      "url": "/__sandbox"
    }
  ],
  "security": [
    {
      "adminToken": []
    }
  ],
  "paths": {
    "/healthz": {
      "servers": [
        {
          "url": "/"
        }
      ],
      "get": {
        "operationId": "probeHealth",
        "summary": "Liveness probe - the process serves. No token, no key, no quota spent.",
        "security": [],
        "responses": {
          "200": {
            "description": "The process serves.",
            "headers": {
              "Cache-Control": {
                "$ref": "#/components/headers/NoStore"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "status"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "status": {
                      "const": "ok"
                    }
                  }
                }
              }
            }
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/readyz": {
      "servers": [
        {
          "url": "/"
        }
      ],
      "get": {
        "operationId": "probeReady",
        "summary": "Readiness probe - seeded and able to serve; 503 service_unavailable (with Retry-After) while not.",
        "description": "503 while the pets are being seeded or reset, or while a storage the sandbox depends on cannot serve; the message names each failing check. No token, no key, no quota spent.\n",
        "security": [],
        "responses": {
          "200": {
            "description": "Ready.",
            "headers": {
              "Cache-Control": {
                "$ref": "#/components/headers/NoStore"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "status",
                    "checks"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "status": {
                      "const": "ready"
                    },
                    "checks": {
                      "type": "array",
                      "items": {
                        "type": "object",
                        "required": [
                          "name",
                          "ready"
                        ],
                        "additionalProperties": false,
                        "properties": {
                          "name": {
                            "type": "string"
                          },
                          "ready": {
                            "type": "boolean"
                          },
                          "reason": {
                            "type": "string"
                          },
                          "detail": {
                            "type": "string",
                            "description": "What a check that serves notes, e.g. that a master of a Redis Cluster has no replica, so a write acknowledged there is lost with it.\n"
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          },
          "503": {
            "$ref": "#/components/responses/Error"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/health": {
      "get": {
        "operationId": "health",
        "summary": "The sandbox answers, and what its clock says.",
        "responses": {
          "200": {
            "description": "Up.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "status",
                    "now"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "status": {
                      "const": "ok"
                    },
                    "now": {
                      "type": "string",
                      "format": "date-time"
                    }
                  }
                }
              }
            }
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/state": {
      "get": {
        "operationId": "getState",
        "parameters": [
          {
            "$ref": "#/components/parameters/Session"
          }
        ],
        "summary": "Pet count and next id, every key with its plan, quota and ban, the faults.",
        "responses": {
          "200": {
            "$ref": "#/components/responses/State"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/reset": {
      "post": {
        "operationId": "reset",
        "summary": "Restores the seeded pets (durably, with --state) and forgets counters and bans; the clock stays unless clock=true.",
        "parameters": [
          {
            "$ref": "#/components/parameters/Session"
          },
          {
            "name": "clock",
            "in": "query",
            "required": false,
            "description": "true also puts the clock back on real time (undoes set and advance).",
            "schema": {
              "type": "boolean"
            }
          }
        ],
        "responses": {
          "200": {
            "$ref": "#/components/responses/State"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/clock": {
      "get": {
        "operationId": "getClock",
        "parameters": [
          {
            "$ref": "#/components/parameters/Session"
          }
        ],
        "summary": "What the sandbox clock says.",
        "responses": {
          "200": {
            "$ref": "#/components/responses/Clock"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      },
      "post": {
        "operationId": "moveClock",
        "parameters": [
          {
            "$ref": "#/components/parameters/Session"
          }
        ],
        "summary": "Sets the clock to an instant, or advances it (negative moves it back). It keeps running.",
        "description": "sandbox - the clock stays between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z, where every instant it shows is an RFC 3339 date-time and every X-RateLimit-Reset a positive Unix time: a move that would leave that span is refused with 400 and changes nothing.\n",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ClockMove"
              }
            }
          }
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/Clock"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/keys": {
      "post": {
        "operationId": "addKey",
        "summary": "Adds an API key with a plan and optional limits (required for enterprise); kept across restarts with --state.",
        "description": "The key must differ from every configured key and from the admin token.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/KeyConfig"
              }
            }
          }
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/KeyEntry"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/keys/{key}": {
      "parameters": [
        {
          "name": "key",
          "in": "path",
          "required": true,
          "description": "A configured API key, or one bound to the session named (D46), percent-encoded.",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getKey",
        "parameters": [
          {
            "$ref": "#/components/parameters/Session"
          }
        ],
        "summary": "A key's quota and ban.",
        "responses": {
          "200": {
            "$ref": "#/components/responses/Key"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      },
      "patch": {
        "operationId": "arrangeKey",
        "parameters": [
          {
            "$ref": "#/components/parameters/Session"
          }
        ],
        "summary": "Sets what is left of a key's quota, and bans or unbans it.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/QuotaChange"
              }
            }
          }
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/Key"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      },
      "delete": {
        "operationId": "revokeKey",
        "summary": "Revokes a key; its requests get 401 from now on. Kept across restarts with --state.",
        "responses": {
          "200": {
            "description": "Revoked.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "key",
                    "revoked"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "key": {
                      "type": "string"
                    },
                    "revoked": {
                      "const": true
                    }
                  }
                }
              }
            }
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/keys/{key}/plan": {
      "parameters": [
        {
          "name": "key",
          "in": "path",
          "required": true,
          "description": "A configured API key, percent-encoded.",
          "schema": {
            "type": "string"
          }
        }
      ],
      "put": {
        "operationId": "setKeyPlan",
        "summary": "Moves a key to another plan; limits not given come from the plan (enterprise needs both). Its counters stay.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PlanChange"
              }
            }
          }
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/KeyEntry"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/keys/{key}/scenario": {
      "parameters": [
        {
          "name": "key",
          "in": "path",
          "required": true,
          "description": "A configured API key, percent-encoded.",
          "schema": {
            "type": "string"
          }
        }
      ],
      "put": {
        "operationId": "setKeyScenario",
        "parameters": [
          {
            "$ref": "#/components/parameters/Session"
          }
        ],
        "summary": "Puts a key in a scenario (D29); only that key's answers change. An unknown name is a 400 listing the known ones.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "required": [
                  "name"
                ],
                "additionalProperties": false,
                "properties": {
                  "name": {
                    "type": "string",
                    "minLength": 1,
                    "description": "A built-in scenario (D29) or one of --scenarios: GET /__sandbox/state lists them."
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/KeyScenario"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      },
      "delete": {
        "operationId": "clearKeyScenario",
        "parameters": [
          {
            "$ref": "#/components/parameters/Session"
          }
        ],
        "summary": "Takes a key out of its scenario.",
        "responses": {
          "200": {
            "$ref": "#/components/responses/KeyScenario"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/faults": {
      "get": {
        "operationId": "getFaults",
        "parameters": [
          {
            "$ref": "#/components/parameters/Session"
          }
        ],
        "summary": "The fault configuration in force.",
        "responses": {
          "200": {
            "$ref": "#/components/responses/Faults"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      },
      "put": {
        "operationId": "setFaults",
        "parameters": [
          {
            "$ref": "#/components/parameters/Session"
          }
        ],
        "summary": "Replaces the fault configuration; the draws start over from its seed.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/FaultSettings"
              }
            }
          }
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/Faults"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/requests": {
      "get": {
        "operationId": "listRequests",
        "summary": "The last requests answered under /v1 and the admin gate's refusals, oldest first, keys masked.",
        "description": "Every refusal of the admin token (401, and 429 once an address sent too many wrong tokens) on any admin path is listed, the event stream's included; admin calls the token let through and the probes are not. Under `petstore-sandbox proxy`, every request the proxy answered (forwarded to the upstream, fallen back to the sandbox, or refused by the proxy itself), each once and with its `source`.\n",
        "parameters": [
          {
            "$ref": "#/components/parameters/Session"
          },
          {
            "$ref": "#/components/parameters/SessionQuery"
          },
          {
            "$ref": "#/components/parameters/ExportLimit"
          },
          {
            "$ref": "#/components/parameters/ExportKey"
          },
          {
            "$ref": "#/components/parameters/ExportScenario"
          }
        ],
        "responses": {
          "200": {
            "description": "The kept requests (at most --keep-requests), written an entry at a time (D36).",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "requests"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "requests": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/RequestLogEntry"
                      }
                    }
                  }
                }
              }
            }
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/requests.har": {
      "get": {
        "operationId": "getHar",
        "summary": "The exchanges this process answered under /v1, as a HAR 1.2 document, keys and the admin token masked.",
        "description": "Headers and bodies (up to 64 KiB each) of the last 1000 answered requests the request log keeps, for a browser's network panel or Playwright's routeFromHAR; dropped connections are left out. On replicas sharing Redis, each process serves the exchanges it answered. Under `petstore-sandbox proxy`, the proxy's request log: the upstream's exchanges too, each with its X-Sandbox-Source, bodies kept when JSON or text.\n",
        "parameters": [
          {
            "$ref": "#/components/parameters/Session"
          },
          {
            "$ref": "#/components/parameters/SessionQuery"
          },
          {
            "name": "id",
            "in": "query",
            "description": "One exchange, by the `id` of its request log entry.",
            "schema": {
              "type": "string",
              "minLength": 1
            }
          },
          {
            "$ref": "#/components/parameters/ExportLimit"
          },
          {
            "$ref": "#/components/parameters/ExportKey"
          },
          {
            "$ref": "#/components/parameters/ExportScenario"
          }
        ],
        "responses": {
          "200": {
            "description": "A HAR 1.2 document, written an entry at a time (D36).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Har"
                }
              }
            }
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/sessions": {
      "get": {
        "operationId": "listSessions",
        "summary": "Every session, the default first, then the most recently used (D34).",
        "responses": {
          "200": {
            "description": "The sessions this process keeps.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "sessions"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "sessions": {
                      "type": "array",
                      "items": {
                        "$ref": "#/components/schemas/SessionSummary"
                      }
                    }
                  }
                }
              }
            }
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      },
      "delete": {
        "operationId": "deleteSessions",
        "summary": "Deletes every named session (those starting with prefix, when given) and their log entries; the default session stays as it is.",
        "description": "What a test run's teardown calls; with the prefix a run names its sessions by (its run id, petstore-sandbox/testing), another run's sessions are left alone.\n",
        "parameters": [
          {
            "name": "prefix",
            "in": "query",
            "required": false,
            "description": "Only the sessions whose name starts with it.",
            "schema": {
              "type": "string",
              "minLength": 1,
              "maxLength": 64
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Deleted.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "deleted"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "deleted": {
                      "type": "array",
                      "description": "The names of the sessions deleted.",
                      "items": {
                        "$ref": "#/components/schemas/SessionName"
                      }
                    }
                  }
                }
              }
            }
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/sessions/{name}": {
      "parameters": [
        {
          "$ref": "#/components/parameters/SessionPath"
        }
      ],
      "get": {
        "operationId": "getSession",
        "summary": "One session's summary; 404 when there is none (this does not make it).",
        "responses": {
          "200": {
            "$ref": "#/components/responses/Session"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      },
      "put": {
        "operationId": "putSession",
        "summary": "Makes the session, or replaces it; its origin, what its reset returns to, is what it was made from.",
        "description": "{} makes it fresh from the start-up world; { \"from\": \"<session>\" } a fork of that session's world as it is at this moment (404 when there is no such session). Replacing the default session makes it start over from there; with --state, only fresh. A capsule, recording or fork whose pets would take the sandbox past --max-pets is refused with 507 storage_full and changes nothing (D23).\n",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/SessionInit"
              }
            }
          }
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/Session"
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      },
      "delete": {
        "operationId": "deleteSession",
        "summary": "Deletes a named session and its log entries; the default session cannot be deleted (409 conflict).",
        "responses": {
          "200": {
            "description": "Deleted.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "name",
                    "deleted"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "name": {
                      "$ref": "#/components/schemas/SessionName"
                    },
                    "deleted": {
                      "const": true
                    }
                  }
                }
              }
            }
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/sessions/{name}/capsule": {
      "parameters": [
        {
          "$ref": "#/components/parameters/SessionPath"
        }
      ],
      "get": {
        "operationId": "getSessionCapsule",
        "summary": "The session's world as a capsule (D34), to restore with PUT /sessions/{name}, start --from or createSandbox({ from }); 404 when there is no such session.",
        "responses": {
          "200": {
            "description": "The capsule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Capsule"
                }
              }
            }
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/sessions/{name}/keys": {
      "parameters": [
        {
          "$ref": "#/components/parameters/SessionPath"
        }
      ],
      "post": {
        "operationId": "addSessionKey",
        "summary": "Makes an API key bound to the named session (D46); a request carrying it is in that session with no X-Sandbox-Session.",
        "description": "The key is made by the sandbox and answered once, whole; it is masked wherever else it travels (D35). It is valid only in its session, with the plan's quotas counted there, and goes with the session (deleted, dropped, replaced); a reset keeps it, a fork does not copy it, a capsule carries it. Sent with an X-Sandbox-Session or baggage naming another session, a request is a 400. The session is made when absent; the default session takes no bound keys (400).\n",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/SessionKeyInit"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The key, bound to the session.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SessionKey"
                }
              }
            }
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/proxy": {
      "get": {
        "operationId": "getProxy",
        "summary": "Only under `petstore-sandbox proxy`: where answers came from, the promises of the spec the upstream broke, and apart from them the open points it decided otherwise than the sandbox, each counted per promise with the last ones kept (keys masked). 404 under `start`.\n",
        "responses": {
          "200": {
            "description": "The proxy's counters since it started.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ProxyState"
                }
              }
            }
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    },
    "/shadow": {
      "get": {
        "operationId": "getShadow",
        "summary": "Only under `petstore-sandbox proxy --shadow`: the drift report (D42), where the sandbox's answers from a world learned from the upstream differ from the upstream's on the same exchanges, grouped by operation and aspect, each a spec violation, a decision taken otherwise, or behaviour; examples masked (D35). 404 elsewhere.\n",
        "responses": {
          "200": {
            "description": "The shadow's report since the proxy started.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ShadowReport"
                }
              }
            }
          },
          "default": {
            "$ref": "#/components/responses/Error"
          }
        }
      }
    }
  },
  "components": {
    "parameters": {
      "ExportLimit": {
        "name": "limit",
        "in": "query",
        "description": "Only the last this many (of those the other parameters pick); all kept without it. The answer is written an entry at a time, whatever it holds (D36).\n",
        "schema": {
          "type": "integer",
          "minimum": 0
        }
      },
      "ExportKey": {
        "name": "key",
        "in": "query",
        "description": "Only the exchanges of this key, a configured key named whole (404 for another). A HAR per key is what Playwright's routeFromHAR can replay per key: it matches by method and URL, and the recorded Authorization is masked.\n",
        "schema": {
          "type": "string",
          "minLength": 1
        }
      },
      "ExportScenario": {
        "name": "scenario",
        "in": "query",
        "description": "Only the answers this scenario shaped (X-Sandbox-Scenario, D29); an unknown name is a 400.",
        "schema": {
          "type": "string",
          "minLength": 1
        }
      },
      "Session": {
        "name": "X-Sandbox-Session",
        "in": "header",
        "required": false,
        "description": "The session the call acts on (D34): made from the start-up world on first use; without it, the session a W3C baggage header's sandbox-session member names (D43), or else the default session. A name the rule refuses is a 400.\n",
        "schema": {
          "$ref": "#/components/schemas/SessionName"
        }
      },
      "SessionQuery": {
        "name": "session",
        "in": "query",
        "required": false,
        "description": "The session, for a client that cannot send headers (an EventSource, a download link). Naming another session than X-Sandbox-Session is a 400.\n",
        "schema": {
          "$ref": "#/components/schemas/SessionName"
        }
      },
      "SessionPath": {
        "name": "name",
        "in": "path",
        "required": true,
        "description": "The session's name (D34); X-Sandbox-Session is ignored on these paths.",
        "schema": {
          "$ref": "#/components/schemas/SessionName"
        }
      }
    },
    "headers": {
      "NoStore": {
        "description": "Probes and admin answers are never cached.",
        "schema": {
          "const": "no-store"
        }
      }
    },
    "securitySchemes": {
      "adminToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "The admin token; API keys are refused with 401."
      }
    },
    "responses": {
      "Error": {
        "description": "400 invalid_request, 401 unauthorized, 404 not_found, 405 method_not_allowed, 409 conflict (deleting the default session), 413 payload_too_large, 415 unsupported_media_type, 429 rate_limited (wrong admin tokens, with Retry-After), 501 not_implemented (a named session on a shared state), 503 service_unavailable (/readyz while not ready, with Retry-After).\n",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "State": {
        "description": "The state summary.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/State"
            }
          }
        }
      },
      "Clock": {
        "description": "The sandbox clock.",
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "required": [
                "now"
              ],
              "additionalProperties": false,
              "properties": {
                "now": {
                  "type": "string",
                  "format": "date-time"
                }
              }
            }
          }
        }
      },
      "Key": {
        "description": "A key's quota and ban.",
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "required": [
                "key",
                "quota"
              ],
              "additionalProperties": false,
              "properties": {
                "key": {
                  "type": "string"
                },
                "quota": {
                  "$ref": "#/components/schemas/Quota"
                }
              }
            }
          }
        }
      },
      "KeyEntry": {
        "description": "A key with its plan, limits and quota.",
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "required": [
                "key",
                "plan",
                "perMinute",
                "perDay",
                "quota"
              ],
              "additionalProperties": false,
              "properties": {
                "key": {
                  "type": "string"
                },
                "plan": {
                  "$ref": "#/components/schemas/Plan"
                },
                "perMinute": {
                  "type": "integer",
                  "minimum": 1
                },
                "perDay": {
                  "type": "integer",
                  "minimum": 1
                },
                "quota": {
                  "$ref": "#/components/schemas/Quota"
                }
              }
            }
          }
        }
      },
      "KeyScenario": {
        "description": "A key's scenario, null when it has none.",
        "content": {
          "application/json": {
            "schema": {
              "type": "object",
              "required": [
                "key",
                "scenario"
              ],
              "additionalProperties": false,
              "properties": {
                "key": {
                  "type": "string"
                },
                "scenario": {
                  "type": [
                    "string",
                    "null"
                  ]
                }
              }
            }
          }
        }
      },
      "Session": {
        "description": "A session's summary.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/SessionSummary"
            }
          }
        }
      },
      "Faults": {
        "description": "The fault configuration in force.",
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Faults"
            }
          }
        }
      }
    },
    "schemas": {
      "Error": {
        "type": "object",
        "required": [
          "code",
          "message",
          "status"
        ],
        "properties": {
          "code": {
            "type": "string",
            "pattern": "^[a-z][a-z0-9_]*$"
          },
          "message": {
            "type": "string",
            "minLength": 1
          },
          "status": {
            "type": "integer",
            "minimum": 400,
            "maximum": 599
          }
        }
      },
      "State": {
        "type": "object",
        "required": [
          "session",
          "now",
          "clockOffsetMs",
          "pets",
          "seeded",
          "keys",
          "faults",
          "scenarios",
          "prefer"
        ],
        "additionalProperties": false,
        "properties": {
          "session": {
            "$ref": "#/components/schemas/SessionName",
            "description": "The session described: default, or the one X-Sandbox-Session named (D34)."
          },
          "now": {
            "type": "string",
            "format": "date-time",
            "description": "The session's clock."
          },
          "clockOffsetMs": {
            "type": "integer",
            "description": "How far the session's clock is from real time (its time source), in ms; 0 when it was never moved (D20)."
          },
          "prefer": {
            "type": "boolean",
            "description": "Whether Prefer: code=<status> is honoured (D30, --prefer)."
          },
          "pets": {
            "type": "object",
            "required": [
              "count",
              "nextId"
            ],
            "additionalProperties": false,
            "properties": {
              "count": {
                "type": "integer",
                "minimum": 0
              },
              "nextId": {
                "type": "integer",
                "minimum": 1
              }
            }
          },
          "seeded": {
            "type": "object",
            "description": "What a reset restores.",
            "required": [
              "seed",
              "pets",
              "source"
            ],
            "additionalProperties": false,
            "properties": {
              "seed": {
                "type": "integer"
              },
              "pets": {
                "type": "integer",
                "minimum": 0
              },
              "source": {
                "type": "string",
                "enum": [
                  "generated",
                  "given"
                ],
                "description": "Pets generated from the seed, or given (--pets-file, createSandbox's pets list)."
              }
            }
          },
          "keys": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "key",
                "masked",
                "plan",
                "perMinute",
                "perDay",
                "quota"
              ],
              "additionalProperties": false,
              "properties": {
                "key": {
                  "type": "string"
                },
                "masked": {
                  "type": "string",
                  "description": "The key as the request log shows it."
                },
                "plan": {
                  "$ref": "#/components/schemas/Plan"
                },
                "perMinute": {
                  "type": "integer",
                  "minimum": 1
                },
                "perDay": {
                  "type": "integer",
                  "minimum": 1
                },
                "quota": {
                  "$ref": "#/components/schemas/Quota"
                },
                "scenario": {
                  "type": "string",
                  "description": "The key's scenario (D29); absent when it has none."
                }
              }
            }
          },
          "faults": {
            "$ref": "#/components/schemas/Faults"
          },
          "scenarios": {
            "type": "array",
            "description": "The scenarios a key can be put in, built-in first.",
            "items": {
              "type": "object",
              "required": [
                "name",
                "description"
              ],
              "additionalProperties": false,
              "properties": {
                "name": {
                  "type": "string"
                },
                "description": {
                  "type": "string"
                }
              }
            }
          }
        }
      },
      "Plan": {
        "enum": [
          "free",
          "pro",
          "business",
          "enterprise"
        ]
      },
      "BearerToken": {
        "type": "string",
        "minLength": 8,
        "maxLength": 256,
        "pattern": "^[A-Za-z0-9._~+/-]+=*$",
        "description": "sandbox - a bearer token (RFC 6750 b64token) of 8 to 256 characters: letters, digits and - . _ ~ + /, with = only at the end"
      },
      "SessionName": {
        "type": "string",
        "pattern": "^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$",
        "description": "sandbox - 1 to 64 letters, digits, '.', '_' or '-', not starting with '.' or '-'"
      },
      "SessionInit": {
        "type": "object",
        "description": "How PUT /sessions/{name} makes a session: {} fresh from the start-up world, { \"from\": \"<session>\" } a fork of that session's world as it is at that moment, { \"capsule\": … } restored from a capsule, or { \"har\": … } learned from a recording (D41).",
        "additionalProperties": false,
        "maxProperties": 1,
        "properties": {
          "from": {
            "$ref": "#/components/schemas/SessionName"
          },
          "capsule": {
            "type": "object",
            "description": "A Capsule (#/components/schemas/Capsule), checked field by field as it is restored, so that a newer version is named before anything else; up to 16 MiB (413 beyond)."
          },
          "har": {
            "type": "object",
            "description": "sandbox - a recording as HAR 1.2 (a browser's, Playwright's recordHar, GET /requests.har), learned into a capsule (D41): every pet its response bodies show (listings, creates, gets) with its id and latest fields kept to the contract's, the next id past the largest, the clock at the last entry's instant; one error naming what is not HAR or that no entry can be learned from; up to 16 MiB."
          }
        }
      },
      "Capsule": {
        "type": "object",
        "description": "sandbox - a session's world as a versioned document (D34): what its pets, clock, faults, each key's scenario and quota are, and its exchanges as HAR for reading (restoring ignores them). The same requests against a restored capsule get the same answers.",
        "required": [
          "kind",
          "version",
          "session",
          "made",
          "clock",
          "seed",
          "pets",
          "nextId",
          "faults",
          "scenarios",
          "quotas",
          "keys"
        ],
        "additionalProperties": false,
        "properties": {
          "kind": {
            "const": "petstore-sandbox/capsule"
          },
          "version": {
            "const": 1,
            "description": "The capsule format; a sandbox refuses a newer one, naming it."
          },
          "session": {
            "$ref": "#/components/schemas/SessionName",
            "description": "The session it was made of."
          },
          "made": {
            "type": "string",
            "format": "date-time",
            "description": "When it was made, in real time."
          },
          "clock": {
            "type": "string",
            "format": "date-time",
            "description": "The session's clock when it was made: a restored session's clock starts there."
          },
          "seed": {
            "type": "integer",
            "minimum": 0,
            "maximum": 9007199254740991,
            "description": "The seed of the scenarios' draws."
          },
          "pets": {
            "type": "array",
            "description": "Every pet, ascending by id.",
            "items": {
              "type": "object",
              "required": [
                "id",
                "name",
                "categoryId"
              ],
              "additionalProperties": false,
              "properties": {
                "id": {
                  "type": "integer",
                  "minimum": 1,
                  "maximum": 9007199254740991
                },
                "name": {
                  "type": "string",
                  "minLength": 1,
                  "maxLength": 200,
                  "pattern": "\\S",
                  "description": "sandbox - 1 to 200 characters, not all white space"
                },
                "categoryId": {
                  "type": "integer",
                  "minimum": 1,
                  "maximum": 9007199254740991
                },
                "status": {
                  "enum": [
                    "available",
                    "pending",
                    "sold"
                  ]
                }
              }
            }
          },
          "nextId": {
            "type": "integer",
            "minimum": 1,
            "maximum": 9007199254740992,
            "description": "The id the next created pet gets: above every pet id; 2^53 once the session assigned every id, and a create is refused (D37)."
          },
          "faults": {
            "$ref": "#/components/schemas/Faults"
          },
          "scenarios": {
            "type": "object",
            "description": "Each key's scenario, by key.",
            "additionalProperties": {
              "type": "string",
              "minLength": 1
            }
          },
          "customScenarios": {
            "type": "object",
            "description": "The definitions of the custom scenarios `scenarios` names.",
            "additionalProperties": {
              "$ref": "#/components/schemas/ScenarioDefinition"
            }
          },
          "quotas": {
            "type": "object",
            "description": "Each key's buckets at the capsule's clock (the windows holding that instant), by key; only keys that used any.",
            "additionalProperties": {
              "type": "object",
              "required": [
                "minuteUsed",
                "dayUsed",
                "refused"
              ],
              "additionalProperties": false,
              "properties": {
                "minuteUsed": {
                  "type": "integer",
                  "minimum": 0,
                  "maximum": 9007199254740991
                },
                "dayUsed": {
                  "type": "integer",
                  "minimum": 0,
                  "maximum": 9007199254740991
                },
                "refused": {
                  "type": "integer",
                  "minimum": 0,
                  "maximum": 9007199254740991
                },
                "bannedUntil": {
                  "type": "string",
                  "format": "date-time"
                }
              }
            }
          },
          "keys": {
            "type": "array",
            "description": "The keys `quotas` and `scenarios` name, with their plans.",
            "items": {
              "$ref": "#/components/schemas/KeyConfig"
            }
          },
          "boundKeys": {
            "type": "array",
            "description": "The keys bound to the session (D46), with their plans; `quotas` and `scenarios` may name them. Restored, they are bound to the session restored (409 conflict while one is bound to another).",
            "items": {
              "$ref": "#/components/schemas/KeyConfig"
            }
          },
          "har": {
            "$ref": "#/components/schemas/Har"
          }
        }
      },
      "SessionSummary": {
        "type": "object",
        "required": [
          "name",
          "pets",
          "requests",
          "now",
          "created",
          "origin",
          "keys"
        ],
        "additionalProperties": false,
        "properties": {
          "name": {
            "$ref": "#/components/schemas/SessionName"
          },
          "pets": {
            "type": "object",
            "required": [
              "count",
              "nextId"
            ],
            "additionalProperties": false,
            "properties": {
              "count": {
                "type": "integer",
                "minimum": 0
              },
              "nextId": {
                "type": "integer",
                "minimum": 1
              }
            }
          },
          "requests": {
            "type": "integer",
            "minimum": 0,
            "description": "The request log's entries of this session this process keeps."
          },
          "now": {
            "type": "string",
            "format": "date-time",
            "description": "The session's clock."
          },
          "created": {
            "type": "string",
            "format": "date-time",
            "description": "When it was made, by the default session's clock."
          },
          "lastUsed": {
            "type": "string",
            "format": "date-time",
            "description": "When a request or call last named it, by the default session's clock; absent for the default session, which is never dropped."
          },
          "origin": {
            "enum": [
              "start-up",
              "fork",
              "capsule"
            ],
            "description": "What its reset returns to."
          },
          "from": {
            "$ref": "#/components/schemas/SessionName",
            "description": "The session a fork was made from."
          },
          "keys": {
            "type": "array",
            "description": "The keys bound to the session (D46), in the order they were made.",
            "items": {
              "type": "object",
              "required": [
                "key",
                "masked",
                "plan",
                "perMinute",
                "perDay"
              ],
              "additionalProperties": false,
              "properties": {
                "key": {
                  "$ref": "#/components/schemas/BearerToken"
                },
                "masked": {
                  "type": "string",
                  "description": "The key as the request log shows it."
                },
                "plan": {
                  "$ref": "#/components/schemas/Plan"
                },
                "perMinute": {
                  "$ref": "#/components/schemas/Limit"
                },
                "perDay": {
                  "$ref": "#/components/schemas/Limit"
                }
              }
            }
          }
        }
      },
      "SessionKeyInit": {
        "type": "object",
        "description": "A bound key's plan (D46); perMinute and perDay override the plan's limits, and an enterprise key needs both.",
        "required": [
          "plan"
        ],
        "additionalProperties": false,
        "properties": {
          "plan": {
            "$ref": "#/components/schemas/Plan"
          },
          "perMinute": {
            "$ref": "#/components/schemas/Limit"
          },
          "perDay": {
            "$ref": "#/components/schemas/Limit"
          }
        },
        "if": {
          "required": [
            "plan"
          ],
          "properties": {
            "plan": {
              "const": "enterprise"
            }
          }
        },
        "then": {
          "required": [
            "perMinute",
            "perDay"
          ]
        }
      },
      "SessionKey": {
        "type": "object",
        "description": "A key bound to a session (D46), with its resolved limits.",
        "required": [
          "key",
          "plan",
          "perMinute",
          "perDay",
          "session"
        ],
        "additionalProperties": false,
        "properties": {
          "key": {
            "$ref": "#/components/schemas/BearerToken"
          },
          "plan": {
            "$ref": "#/components/schemas/Plan"
          },
          "perMinute": {
            "$ref": "#/components/schemas/Limit"
          },
          "perDay": {
            "$ref": "#/components/schemas/Limit"
          },
          "session": {
            "$ref": "#/components/schemas/SessionName"
          }
        }
      },
      "Limit": {
        "type": "integer",
        "minimum": 1,
        "maximum": 9007199254740991
      },
      "KeyConfig": {
        "type": "object",
        "description": "An API key with its plan; perMinute and perDay override the plan's limits, and an enterprise key needs both.",
        "required": [
          "key",
          "plan"
        ],
        "additionalProperties": false,
        "properties": {
          "key": {
            "$ref": "#/components/schemas/BearerToken"
          },
          "plan": {
            "$ref": "#/components/schemas/Plan"
          },
          "perMinute": {
            "$ref": "#/components/schemas/Limit"
          },
          "perDay": {
            "$ref": "#/components/schemas/Limit"
          }
        },
        "if": {
          "required": [
            "plan"
          ],
          "properties": {
            "plan": {
              "const": "enterprise"
            }
          }
        },
        "then": {
          "required": [
            "perMinute",
            "perDay"
          ]
        }
      },
      "PlanChange": {
        "type": "object",
        "required": [
          "plan"
        ],
        "additionalProperties": false,
        "properties": {
          "plan": {
            "$ref": "#/components/schemas/Plan"
          },
          "perMinute": {
            "$ref": "#/components/schemas/Limit"
          },
          "perDay": {
            "$ref": "#/components/schemas/Limit"
          }
        },
        "if": {
          "required": [
            "plan"
          ],
          "properties": {
            "plan": {
              "const": "enterprise"
            }
          }
        },
        "then": {
          "required": [
            "perMinute",
            "perDay"
          ]
        }
      },
      "QuotaChange": {
        "type": "object",
        "description": "What is left of a key's quota, and its ban; sandbox.quota.set takes the same.",
        "additionalProperties": false,
        "minProperties": 1,
        "properties": {
          "remaining": {
            "type": "integer",
            "minimum": 0,
            "description": "Left in both windows (capped by each limit)."
          },
          "minuteRemaining": {
            "type": "integer",
            "minimum": 0
          },
          "dayRemaining": {
            "type": "integer",
            "minimum": 0
          },
          "banned": {
            "description": "true (ban for banSeconds), false (lift the ban), or a ban length in seconds.",
            "oneOf": [
              {
                "type": "boolean"
              },
              {
                "type": "number",
                "exclusiveMinimum": 0
              }
            ]
          }
        }
      },
      "KeysFile": {
        "type": "object",
        "description": "The keys file of --keys.",
        "required": [
          "keys"
        ],
        "additionalProperties": false,
        "properties": {
          "keys": {
            "type": "array",
            "minItems": 1,
            "items": {
              "$ref": "#/components/schemas/KeyConfig"
            }
          }
        }
      },
      "ClockMove": {
        "oneOf": [
          {
            "type": "object",
            "required": [
              "set"
            ],
            "additionalProperties": false,
            "properties": {
              "set": {
                "type": "string",
                "format": "date-time"
              }
            }
          },
          {
            "type": "object",
            "required": [
              "advanceMs"
            ],
            "additionalProperties": false,
            "properties": {
              "advanceMs": {
                "type": "integer",
                "minimum": -3155760000000,
                "maximum": 3155760000000,
                "description": "sandbox - at most 100 years (of 365.25 days) either way."
              }
            }
          }
        ]
      },
      "Window": {
        "type": "object",
        "required": [
          "limit",
          "used",
          "remaining",
          "reset"
        ],
        "additionalProperties": false,
        "properties": {
          "limit": {
            "type": "integer",
            "minimum": 0
          },
          "used": {
            "type": "integer",
            "minimum": 0
          },
          "remaining": {
            "type": "integer",
            "minimum": 0
          },
          "reset": {
            "type": "integer",
            "description": "Unix seconds at which the window ends."
          }
        }
      },
      "Quota": {
        "type": "object",
        "required": [
          "limit",
          "remaining",
          "reset",
          "banned",
          "minute",
          "day",
          "refused"
        ],
        "additionalProperties": false,
        "properties": {
          "limit": {
            "type": "integer",
            "minimum": 0,
            "description": "The limit of the binding window (what X-RateLimit-Limit says)."
          },
          "remaining": {
            "type": "integer",
            "minimum": 0,
            "description": "Requests left in the binding window; 0 while banned."
          },
          "reset": {
            "type": "integer",
            "description": "Unix seconds at which the binding window, or the ban, ends."
          },
          "banned": {
            "type": "boolean",
            "description": "Whether requests are refused with 429 temporarily_banned right now."
          },
          "minute": {
            "$ref": "#/components/schemas/Window"
          },
          "day": {
            "$ref": "#/components/schemas/Window"
          },
          "refused": {
            "type": "integer",
            "minimum": 0,
            "description": "Refusals counted towards a ban in the current window."
          },
          "bannedUntil": {
            "type": "integer",
            "description": "Epoch ms at which the ban ends; absent when not banned."
          }
        }
      },
      "FaultKind": {
        "enum": [
          "500",
          "503",
          "drop"
        ]
      },
      "LatencyRange": {
        "type": "object",
        "description": "Added latency in ms, drawn uniformly from min to max; min must not be above max.",
        "required": [
          "min",
          "max"
        ],
        "additionalProperties": false,
        "properties": {
          "min": {
            "type": "integer",
            "minimum": 0,
            "maximum": 60000
          },
          "max": {
            "type": "integer",
            "minimum": 0,
            "maximum": 60000
          }
        }
      },
      "LatencySetting": {
        "description": "Added latency in ms, or a range to draw it from.",
        "oneOf": [
          {
            "type": "integer",
            "minimum": 0,
            "maximum": 60000
          },
          {
            "$ref": "#/components/schemas/LatencyRange"
          }
        ]
      },
      "LatencyPercentiles": {
        "type": "object",
        "description": "sandbox - added latency in ms drawn from a log-normal through both percentiles: half the answers take p50 or less, 99 in 100 take p99 or less; p50 must not be above p99 (D45).",
        "required": [
          "p50",
          "p99"
        ],
        "additionalProperties": false,
        "properties": {
          "p50": {
            "type": "number",
            "minimum": 0,
            "maximum": 60000
          },
          "p99": {
            "type": "number",
            "minimum": 0,
            "maximum": 60000
          }
        }
      },
      "Latency": {
        "description": "Added latency drawn uniformly from a range, or from a log-normal through two percentiles.",
        "oneOf": [
          {
            "$ref": "#/components/schemas/LatencyRange"
          },
          {
            "$ref": "#/components/schemas/LatencyPercentiles"
          }
        ]
      },
      "FaultLatencySetting": {
        "description": "Added latency in ms, a range to draw it from, or two percentiles to draw it through.",
        "oneOf": [
          {
            "type": "integer",
            "minimum": 0,
            "maximum": 60000
          },
          {
            "$ref": "#/components/schemas/LatencyRange"
          },
          {
            "$ref": "#/components/schemas/LatencyPercentiles"
          }
        ]
      },
      "Burst": {
        "type": "number",
        "minimum": 1,
        "maximum": 100000,
        "description": "sandbox - the mean length of a run of injected failures: failures come in bursts, the long-run share still errorRate (D45). Without it each request fails or not by itself."
      },
      "OperationFaults": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "latency": {
            "$ref": "#/components/schemas/Latency"
          },
          "errorRate": {
            "type": "number",
            "minimum": 0,
            "maximum": 1
          },
          "burst": {
            "$ref": "#/components/schemas/Burst"
          }
        }
      },
      "OperationFaultSettings": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "latency": {
            "$ref": "#/components/schemas/FaultLatencySetting"
          },
          "errorRate": {
            "type": "number",
            "minimum": 0,
            "maximum": 1
          },
          "burst": {
            "$ref": "#/components/schemas/Burst"
          }
        }
      },
      "FaultSettings": {
        "type": "object",
        "description": "Faults to inject (the admin API's PUT /faults, the faults option, the CLI's fault flags). Operations are named by operationId (listPets, createPet, getPet).\n",
        "additionalProperties": false,
        "properties": {
          "latency": {
            "$ref": "#/components/schemas/FaultLatencySetting"
          },
          "errorRate": {
            "type": "number",
            "minimum": 0,
            "maximum": 1
          },
          "burst": {
            "$ref": "#/components/schemas/Burst"
          },
          "kinds": {
            "type": "array",
            "minItems": 1,
            "items": {
              "$ref": "#/components/schemas/FaultKind"
            }
          },
          "operations": {
            "type": "object",
            "additionalProperties": {
              "$ref": "#/components/schemas/OperationFaultSettings"
            }
          },
          "seed": {
            "type": "integer",
            "minimum": 0,
            "maximum": 9007199254740991
          }
        }
      },
      "Faults": {
        "type": "object",
        "required": [
          "latency",
          "errorRate",
          "kinds",
          "operations",
          "seed"
        ],
        "additionalProperties": false,
        "properties": {
          "latency": {
            "$ref": "#/components/schemas/Latency"
          },
          "errorRate": {
            "type": "number",
            "minimum": 0,
            "maximum": 1
          },
          "burst": {
            "$ref": "#/components/schemas/Burst"
          },
          "kinds": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/FaultKind"
            }
          },
          "operations": {
            "type": "object",
            "additionalProperties": {
              "$ref": "#/components/schemas/OperationFaults"
            }
          },
          "seed": {
            "type": "integer",
            "minimum": 0
          }
        }
      },
      "Har": {
        "type": "object",
        "description": "HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/); the fields the sandbox writes.",
        "required": [
          "log"
        ],
        "properties": {
          "log": {
            "type": "object",
            "required": [
              "version",
              "creator",
              "pages",
              "entries"
            ],
            "properties": {
              "version": {
                "const": "1.2"
              },
              "creator": {
                "type": "object",
                "required": [
                  "name",
                  "version"
                ],
                "properties": {
                  "name": {
                    "type": "string"
                  },
                  "version": {
                    "type": "string"
                  }
                }
              },
              "pages": {
                "type": "array",
                "maxItems": 0,
                "items": {
                  "type": "object"
                },
                "description": "Always empty (API calls, no page loads); written because Firefox's HAR importer needs it."
              },
              "entries": {
                "type": "array",
                "items": {
                  "type": "object",
                  "required": [
                    "startedDateTime",
                    "time",
                    "request",
                    "response",
                    "cache",
                    "timings",
                    "_resourceType"
                  ],
                  "properties": {
                    "startedDateTime": {
                      "type": "string",
                      "format": "date-time"
                    },
                    "_resourceType": {
                      "const": "fetch",
                      "description": "Chrome's resource type, so that its network panel lists the exchange under Fetch/XHR."
                    },
                    "time": {
                      "type": "number",
                      "minimum": 0
                    },
                    "request": {
                      "type": "object",
                      "required": [
                        "method",
                        "url",
                        "httpVersion",
                        "cookies",
                        "headers",
                        "queryString",
                        "headersSize",
                        "bodySize"
                      ],
                      "properties": {
                        "method": {
                          "type": "string"
                        },
                        "url": {
                          "type": "string"
                        },
                        "httpVersion": {
                          "type": "string"
                        },
                        "cookies": {
                          "type": "array",
                          "items": {
                            "type": "object"
                          }
                        },
                        "headers": {
                          "$ref": "#/components/schemas/HarHeaders"
                        },
                        "queryString": {
                          "$ref": "#/components/schemas/HarHeaders"
                        },
                        "postData": {
                          "type": "object",
                          "required": [
                            "mimeType",
                            "text"
                          ],
                          "properties": {
                            "mimeType": {
                              "type": "string"
                            },
                            "text": {
                              "type": "string"
                            }
                          }
                        },
                        "headersSize": {
                          "type": "integer"
                        },
                        "bodySize": {
                          "type": "integer"
                        }
                      }
                    },
                    "response": {
                      "type": "object",
                      "required": [
                        "status",
                        "statusText",
                        "httpVersion",
                        "cookies",
                        "headers",
                        "content",
                        "redirectURL",
                        "headersSize",
                        "bodySize"
                      ],
                      "properties": {
                        "status": {
                          "type": "integer",
                          "minimum": 100,
                          "maximum": 599
                        },
                        "statusText": {
                          "type": "string"
                        },
                        "httpVersion": {
                          "type": "string"
                        },
                        "cookies": {
                          "type": "array",
                          "items": {
                            "type": "object"
                          }
                        },
                        "headers": {
                          "$ref": "#/components/schemas/HarHeaders"
                        },
                        "content": {
                          "type": "object",
                          "required": [
                            "size",
                            "mimeType"
                          ],
                          "properties": {
                            "size": {
                              "type": "integer",
                              "minimum": 0
                            },
                            "mimeType": {
                              "type": "string"
                            },
                            "text": {
                              "type": "string"
                            },
                            "comment": {
                              "type": "string"
                            }
                          }
                        },
                        "redirectURL": {
                          "type": "string"
                        },
                        "headersSize": {
                          "type": "integer"
                        },
                        "bodySize": {
                          "type": "integer"
                        }
                      }
                    },
                    "cache": {
                      "type": "object"
                    },
                    "timings": {
                      "type": "object",
                      "required": [
                        "send",
                        "wait",
                        "receive"
                      ],
                      "properties": {
                        "send": {
                          "type": "number"
                        },
                        "wait": {
                          "type": "number"
                        },
                        "receive": {
                          "type": "number"
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      },
      "HarHeaders": {
        "type": "array",
        "items": {
          "type": "object",
          "required": [
            "name",
            "value"
          ],
          "additionalProperties": false,
          "properties": {
            "name": {
              "type": "string"
            },
            "value": {
              "type": "string"
            }
          }
        }
      },
      "ScenarioBehaviour": {
        "type": "object",
        "description": "What a scenario does to one operation's answers (D29); a field left out does nothing.",
        "additionalProperties": false,
        "properties": {
          "latency": {
            "oneOf": [
              {
                "type": "integer",
                "minimum": 0,
                "maximum": 60000
              },
              {
                "$ref": "#/components/schemas/LatencyRange"
              }
            ],
            "description": "Whole answers arrive this late, in ms."
          },
          "errorRate": {
            "type": "number",
            "minimum": 0,
            "maximum": 1,
            "description": "Share of answers that are a drawn error."
          },
          "kinds": {
            "type": "array",
            "minItems": 1,
            "items": {
              "enum": [
                "500",
                "503"
              ]
            },
            "description": "The drawn errors, chosen among uniformly. Default: 500 and 503."
          },
          "status": {
            "type": "integer",
            "minimum": 100,
            "maximum": 599,
            "description": "Every answer has this status (one the operation lists, or any 4xx/5xx)."
          }
        }
      },
      "ScenarioDefinition": {
        "description": "A custom scenario of a --scenarios file; `operations` override the rest per operationId.",
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "description": {
            "type": "string"
          },
          "latency": {
            "$ref": "#/components/schemas/ScenarioBehaviour/properties/latency"
          },
          "errorRate": {
            "$ref": "#/components/schemas/ScenarioBehaviour/properties/errorRate"
          },
          "kinds": {
            "$ref": "#/components/schemas/ScenarioBehaviour/properties/kinds"
          },
          "status": {
            "$ref": "#/components/schemas/ScenarioBehaviour/properties/status"
          },
          "operations": {
            "type": "object",
            "propertyNames": {
              "enum": [
                "listPets",
                "createPet",
                "getPet"
              ]
            },
            "additionalProperties": {
              "$ref": "#/components/schemas/ScenarioBehaviour"
            }
          }
        }
      },
      "ScenariosFile": {
        "type": "object",
        "description": "The --scenarios file: { \"scenarios\": { \"<name>\": ScenarioDefinition } }.",
        "required": [
          "scenarios"
        ],
        "additionalProperties": false,
        "properties": {
          "scenarios": {
            "type": "object",
            "propertyNames": {
              "pattern": "^[a-z0-9][a-z0-9-]{0,39}$"
            },
            "additionalProperties": {
              "$ref": "#/components/schemas/ScenarioDefinition"
            }
          }
        }
      },
      "RequestLogEntry": {
        "type": "object",
        "required": [
          "time",
          "method",
          "path",
          "status",
          "durationMs",
          "key"
        ],
        "additionalProperties": false,
        "properties": {
          "id": {
            "type": "string",
            "description": "Names the exchange for /requests.har?id=, on the process that answered it."
          },
          "time": {
            "type": "string",
            "format": "date-time"
          },
          "method": {
            "type": "string"
          },
          "path": {
            "type": "string"
          },
          "status": {
            "type": "integer",
            "description": "The HTTP status, 0 for an injected dropped connection."
          },
          "durationMs": {
            "type": "number",
            "minimum": 0
          },
          "key": {
            "type": "string",
            "description": "Masked key, or - without one."
          },
          "fault": {
            "type": "string",
            "description": "The X-Sandbox-Fault mark, or drop."
          },
          "scenario": {
            "type": "string",
            "description": "The scenario of the key that shaped the answer (X-Sandbox-Scenario, D29)."
          },
          "forced": {
            "type": "integer",
            "minimum": 100,
            "maximum": 599,
            "description": "The status a Prefer: code=<status> forced (Preference-Applied, D30)."
          },
          "source": {
            "type": "string",
            "enum": [
              "upstream",
              "sandbox"
            ],
            "description": "Only under `petstore-sandbox proxy`, who answered (as X-Sandbox-Source says); absent under `start`."
          },
          "session": {
            "$ref": "#/components/schemas/SessionName",
            "description": "The session the request named (X-Sandbox-Session, D34); absent for the default session."
          },
          "requestHeaders": {
            "type": "array",
            "description": "The request's headers in order, as HAR lists them; credentials (Authorization, Cookie) and configured keys masked.",
            "items": {
              "type": "object",
              "required": [
                "name",
                "value"
              ],
              "additionalProperties": false,
              "properties": {
                "name": {
                  "type": "string"
                },
                "value": {
                  "type": "string"
                }
              }
            }
          },
          "responseHeaders": {
            "type": "array",
            "description": "The answer's headers in order, masked alike; absent for a dropped connection.",
            "items": {
              "type": "object",
              "required": [
                "name",
                "value"
              ],
              "additionalProperties": false,
              "properties": {
                "name": {
                  "type": "string"
                },
                "value": {
                  "type": "string"
                }
              }
            }
          }
        }
      },
      "ShadowReport": {
        "type": "object",
        "description": "sandbox - the drift report of `proxy --shadow` (D42), bounded whatever the traffic.",
        "required": [
          "exchanges",
          "compared",
          "dropped",
          "unlisted",
          "differences"
        ],
        "additionalProperties": false,
        "properties": {
          "exchanges": {
            "type": "integer",
            "minimum": 0,
            "description": "Exchanges the upstream answered that the shadow was handed."
          },
          "compared": {
            "type": "integer",
            "minimum": 0,
            "description": "Of them, those the shadow answered and compared."
          },
          "dropped": {
            "type": "integer",
            "minimum": 0,
            "description": "Of them, those left uncompared: the queue was full, or a body was too large to replay or not kept whole."
          },
          "unlisted": {
            "type": "integer",
            "minimum": 0,
            "description": "Differences counted beyond the groups the report holds (at most 100)."
          },
          "differences": {
            "type": "array",
            "maxItems": 100,
            "items": {
              "$ref": "#/components/schemas/ShadowDifference"
            }
          }
        }
      },
      "ShadowDifference": {
        "type": "object",
        "required": [
          "operation",
          "aspect",
          "kind",
          "count",
          "upstream",
          "sandbox",
          "example"
        ],
        "additionalProperties": false,
        "properties": {
          "operation": {
            "type": "string",
            "description": "The operationId, or the method and path for a path of no operation."
          },
          "aspect": {
            "type": "string",
            "description": "What differs: status, body:code, body:type, body:ids, body:order, body:field:<name>, header:<name>."
          },
          "kind": {
            "type": "string",
            "enum": [
              "spec",
              "decision",
              "behaviour"
            ],
            "description": "spec: the upstream breaks a promise of the spec (as verify counts them, D39); decision: it takes one of the sandbox's decisions otherwise (see decision); behaviour: neither explains it."
          },
          "decision": {
            "type": "string",
            "pattern": "^D[0-9]+$",
            "description": "The decision the upstream took otherwise, for kind decision."
          },
          "count": {
            "type": "integer",
            "minimum": 1
          },
          "upstream": {
            "type": "string",
            "maxLength": 200,
            "description": "What the upstream's answer showed, in the first exchange of the group."
          },
          "sandbox": {
            "type": "string",
            "maxLength": 200,
            "description": "What the sandbox's answer showed there."
          },
          "example": {
            "type": "object",
            "description": "The first exchange of the group, masked (D35).",
            "required": [
              "time",
              "method",
              "path",
              "upstreamStatus",
              "sandboxStatus"
            ],
            "additionalProperties": false,
            "properties": {
              "time": {
                "type": "string",
                "format": "date-time"
              },
              "method": {
                "type": "string"
              },
              "path": {
                "type": "string"
              },
              "key": {
                "type": "string",
                "description": "The key sent, masked."
              },
              "upstreamStatus": {
                "type": "integer"
              },
              "sandboxStatus": {
                "type": "integer"
              }
            }
          }
        }
      },
      "ProxyState": {
        "type": "object",
        "required": [
          "upstream",
          "fallback",
          "upstreamTimeoutMs",
          "answers",
          "fallbacks",
          "violations",
          "differences"
        ],
        "additionalProperties": false,
        "properties": {
          "upstream": {
            "type": "string",
            "description": "The upstream API base requests are forwarded to."
          },
          "fallback": {
            "type": "boolean",
            "description": "Whether the sandbox answers when the upstream cannot."
          },
          "upstreamTimeoutMs": {
            "type": "integer",
            "minimum": 1
          },
          "answers": {
            "type": "object",
            "description": "Answers to /v1 requests, by the X-Sandbox-Source they carried; the pages', the probes' and the admin API's are not counted.",
            "required": [
              "upstream",
              "sandbox"
            ],
            "additionalProperties": false,
            "properties": {
              "upstream": {
                "type": "integer",
                "minimum": 0
              },
              "sandbox": {
                "type": "integer",
                "minimum": 0
              }
            }
          },
          "fallbacks": {
            "type": "object",
            "description": "Requests the sandbox answered instead of the upstream, by reason.",
            "required": [
              "unreachable",
              "timeout",
              "missing"
            ],
            "additionalProperties": false,
            "properties": {
              "unreachable": {
                "type": "integer",
                "minimum": 0
              },
              "timeout": {
                "type": "integer",
                "minimum": 0
              },
              "missing": {
                "type": "integer",
                "minimum": 0,
                "description": "The upstream answered 404 or 501 for an operation of the contract."
              }
            }
          },
          "violations": {
            "type": "object",
            "description": "The promises of the spec (seed) the upstream broke, drift from the spec (D39).",
            "required": [
              "total",
              "byPromise",
              "recent"
            ],
            "additionalProperties": false,
            "properties": {
              "total": {
                "type": "integer",
                "minimum": 0
              },
              "byPromise": {
                "type": "object",
                "description": "Violations per promise id (docs/verify-and-proxy.md lists the promises).",
                "additionalProperties": {
                  "type": "integer",
                  "minimum": 1
                }
              },
              "recent": {
                "type": "array",
                "description": "The last violations, oldest first.",
                "items": {
                  "type": "object",
                  "required": [
                    "time",
                    "promise",
                    "expected",
                    "method",
                    "path",
                    "status",
                    "key"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "time": {
                      "type": "string",
                      "format": "date-time"
                    },
                    "promise": {
                      "type": "string"
                    },
                    "expected": {
                      "type": "string"
                    },
                    "method": {
                      "type": "string"
                    },
                    "path": {
                      "type": "string",
                      "description": "Path and query, credential-like parameters masked."
                    },
                    "status": {
                      "type": "integer"
                    },
                    "key": {
                      "type": "string",
                      "description": "The masked key (`sand…#1a2b`), `-` without one."
                    }
                  }
                }
              }
            }
          },
          "differences": {
            "type": "object",
            "description": "Where the spec is silent and the upstream decided otherwise than the sandbox (the promises of a decision Dn): no violation of the spec, counted apart (D39).\n",
            "required": [
              "total",
              "byPromise",
              "recent"
            ],
            "additionalProperties": false,
            "properties": {
              "total": {
                "type": "integer",
                "minimum": 0
              },
              "byPromise": {
                "type": "object",
                "description": "Differences per promise id (docs/verify-and-proxy.md lists the promises).",
                "additionalProperties": {
                  "type": "integer",
                  "minimum": 1
                }
              },
              "recent": {
                "type": "array",
                "description": "The last differences, oldest first.",
                "items": {
                  "type": "object",
                  "required": [
                    "time",
                    "promise",
                    "decisions",
                    "expected",
                    "method",
                    "path",
                    "status",
                    "key"
                  ],
                  "additionalProperties": false,
                  "properties": {
                    "time": {
                      "type": "string",
                      "format": "date-time"
                    },
                    "promise": {
                      "type": "string"
                    },
                    "decisions": {
                      "type": "string",
                      "description": "The decisions behind the promise, e.g. `D3`."
                    },
                    "expected": {
                      "type": "string",
                      "description": "What the sandbox would have answered."
                    },
                    "method": {
                      "type": "string"
                    },
                    "path": {
                      "type": "string",
                      "description": "Path and query, credential-like parameters masked."
                    },
                    "status": {
                      "type": "integer"
                    },
                    "key": {
                      "type": "string",
                      "description": "The masked key (`sand…#1a2b`), `-` without one."
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}
