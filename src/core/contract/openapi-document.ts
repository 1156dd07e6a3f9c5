// Generated from fixtures/openapi.yaml by scripts/generate-contract.mjs. Do not edit.
// Regenerate with `npm run generate`; `npm run generate -- --check` fails when this file is stale.
import type { OpenApiDocument } from './openapi-document-type.js'

export const openapiDocument: OpenApiDocument = {
  "openapi": "3.1.0",
  "info": {
    "title": "Animal Store API",
    "version": "1.0.0",
    "description": "The Animal Store service interface, version 1.0.0, as served by petstore-sandbox.\nConstraints the interface leaves open follow the sandbox's numbered decisions (see\ndocs/decisions.md); they are marked \"sandbox\" below.\n"
  },
  "servers": [
    {
      "url": "https://api.animal-store.example/v1",
      "description": "Production ({base_url}); the spec gives no concrete host."
    },
    {
      "url": "https://staging.animal-store.example/v1",
      "description": "Staging ({staging_base_url}); petstore-sandbox stands in for this one."
    }
  ],
  "security": [
    {
      "bearerAuth": []
    }
  ],
  "tags": [
    {
      "name": "pets"
    }
  ],
  "paths": {
    "/pets": {
      "get": {
        "operationId": "listPets",
        "summary": "List animals",
        "description": "Returns the first `limit` animals in ascending `id` order, optionally filtered by status.\nsandbox - no other paging parameter exists (D8).\n",
        "tags": [
          "pets"
        ],
        "security": [
          {
            "bearerAuth": []
          }
        ],
        "parameters": [
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "description": "Maximum number of animals to return. sandbox - an int32, in plain decimal digits (D3).",
            "schema": {
              "type": "integer",
              "format": "int32",
              "minimum": 1,
              "maximum": 100,
              "default": 20
            }
          },
          {
            "name": "status",
            "in": "query",
            "required": false,
            "description": "Filter by availability status.",
            "schema": {
              "$ref": "#/components/schemas/PetStatus"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The animals, ascending by id.",
            "headers": {
              "X-RateLimit-Limit": {
                "$ref": "#/components/headers/X-RateLimit-Limit"
              },
              "X-RateLimit-Remaining": {
                "$ref": "#/components/headers/X-RateLimit-Remaining"
              },
              "X-RateLimit-Reset": {
                "$ref": "#/components/headers/X-RateLimit-Reset"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Pets"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "default": {
            "$ref": "#/components/responses/UnexpectedError"
          }
        }
      },
      "post": {
        "operationId": "createPet",
        "summary": "Add an animal",
        "tags": [
          "pets"
        ],
        "security": [
          {
            "bearerAuth": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewPet"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The created animal, including its assigned id.",
            "headers": {
              "X-RateLimit-Limit": {
                "$ref": "#/components/headers/X-RateLimit-Limit"
              },
              "X-RateLimit-Remaining": {
                "$ref": "#/components/headers/X-RateLimit-Remaining"
              },
              "X-RateLimit-Reset": {
                "$ref": "#/components/headers/X-RateLimit-Reset"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Pet"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "507": {
            "$ref": "#/components/responses/InsufficientStorage"
          },
          "default": {
            "$ref": "#/components/responses/UnexpectedError"
          }
        }
      }
    },
    "/pets/{petId}": {
      "get": {
        "operationId": "getPet",
        "summary": "Get an animal (deprecated)",
        "description": "Deprecated, removed on 5 December 2030. Use `GET /pets` with the `status` filter.\nsandbox - every response carries `Deprecation`, `Sunset` and `Link`; from the sunset on the\noperation answers 410 (D18).\n",
        "tags": [
          "pets"
        ],
        "deprecated": true,
        "x-deprecation": {
          "deprecatedAt": "2025-12-05T00:00:00Z",
          "sunset": "2030-12-05T00:00:00Z",
          "successor": "/v1/pets"
        },
        "security": [
          {
            "bearerAuth": []
          }
        ],
        "parameters": [
          {
            "name": "petId",
            "in": "path",
            "required": true,
            "description": "The identifier of the animal. sandbox - any int64 in plain decimal digits; one that names no animal (0, a negative one, one past every id) is a 404 (D37), and what is no int64 (`abc`, `1.5`, 2^63) a 400 (D3).",
            "schema": {
              "type": "integer",
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The animal.",
            "headers": {
              "X-RateLimit-Limit": {
                "$ref": "#/components/headers/X-RateLimit-Limit"
              },
              "X-RateLimit-Remaining": {
                "$ref": "#/components/headers/X-RateLimit-Remaining"
              },
              "X-RateLimit-Reset": {
                "$ref": "#/components/headers/X-RateLimit-Reset"
              },
              "Deprecation": {
                "$ref": "#/components/headers/Deprecation"
              },
              "Sunset": {
                "$ref": "#/components/headers/Sunset"
              },
              "Link": {
                "$ref": "#/components/headers/Link"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Pet"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/DeprecatedError"
          },
          "401": {
            "$ref": "#/components/responses/DeprecatedError"
          },
          "404": {
            "$ref": "#/components/responses/DeprecatedError"
          },
          "410": {
            "$ref": "#/components/responses/DeprecatedError"
          },
          "429": {
            "$ref": "#/components/responses/DeprecatedTooManyRequests"
          },
          "default": {
            "$ref": "#/components/responses/DeprecatedError"
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "`Authorization: Bearer <API key>`. sandbox - the scheme name is case-insensitive (D17)."
      }
    },
    "schemas": {
      "PetStatus": {
        "type": "string",
        "enum": [
          "available",
          "pending",
          "sold"
        ]
      },
      "NewPet": {
        "type": "object",
        "required": [
          "name",
          "categoryId"
        ],
        "description": "sandbox - other properties (a client-sent `id` included) are ignored (D7).",
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 200,
            "pattern": "\\S",
            "description": "sandbox - 1 to 200 characters (Unicode code points) as sent, at least one of them not white space; stored trimmed; not unique (D5)."
          },
          "categoryId": {
            "type": "integer",
            "format": "int64",
            "minimum": 1,
            "maximum": 9007199254740991,
            "description": "sandbox - any safe integer of 1 or more; categories are not checked (D6)."
          },
          "status": {
            "$ref": "#/components/schemas/PetStatus",
            "description": "sandbox - available when left out (D4)."
          }
        }
      },
      "Pet": {
        "type": "object",
        "description": "sandbox - no properties beyond these (D7).",
        "required": [
          "id",
          "name",
          "categoryId"
        ],
        "properties": {
          "id": {
            "type": "integer",
            "format": "int64",
            "minimum": 1,
            "description": "Assigned by the service. sandbox - ascending, never reused (D7)."
          },
          "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 200,
            "description": "sandbox - 1 to 200 characters, as stored (trimmed) (D5)."
          },
          "categoryId": {
            "type": "integer",
            "format": "int64",
            "minimum": 1,
            "description": "sandbox - 1 or more (D6)."
          },
          "status": {
            "$ref": "#/components/schemas/PetStatus"
          }
        },
        "additionalProperties": false
      },
      "Pets": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/Pet"
        }
      },
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
            "pattern": "^[a-z][a-z0-9_]*$",
            "description": "sandbox - stable snake_case code, one per condition (D2)."
          },
          "message": {
            "type": "string",
            "minLength": 1,
            "description": "sandbox - never empty; says what was wrong, naming the field (D2)."
          },
          "status": {
            "type": "integer",
            "minimum": 400,
            "maximum": 599,
            "description": "The HTTP status code. sandbox - the answer's own, 400 to 599 (D2)."
          }
        }
      }
    },
    "headers": {
      "X-RateLimit-Limit": {
        "required": true,
        "description": "sandbox - the limit of the binding window, the one with fewer requests left (D13).",
        "schema": {
          "type": "integer",
          "minimum": 0
        }
      },
      "X-RateLimit-Remaining": {
        "required": true,
        "description": "Requests remaining in the binding window. sandbox - never negative (D13).",
        "schema": {
          "type": "integer",
          "minimum": 0
        }
      },
      "X-RateLimit-Reset": {
        "required": true,
        "description": "Unix time in seconds at which the binding window resets. sandbox - of the binding window (D13).",
        "schema": {
          "type": "integer",
          "minimum": 0
        }
      },
      "Retry-After": {
        "required": true,
        "description": "sandbox - whole seconds to wait, at least 1 (D14).",
        "schema": {
          "type": "integer",
          "minimum": 1
        }
      },
      "Deprecation": {
        "required": true,
        "description": "sandbox - RFC 9745 structured date, `@<unix seconds>` (D18).",
        "schema": {
          "type": "string",
          "pattern": "^@-?[0-9]+$"
        }
      },
      "Sunset": {
        "required": true,
        "description": "sandbox - RFC 8594 HTTP-date of the removal (D18).",
        "schema": {
          "type": "string"
        }
      },
      "Link": {
        "required": true,
        "description": "sandbox - the successor operation, `</v1/pets>; rel=\"successor-version\"` (D18).",
        "schema": {
          "type": "string",
          "pattern": "rel=\"successor-version\""
        }
      }
    },
    "responses": {
      "BadRequest": {
        "description": "Invalid parameters or body (`invalid_request`). sandbox - integers are plain decimal digits and integer or enumerated parameters must not be empty (D3); a body must be valid UTF-8 JSON without a byte order mark or a repeated key (D9).",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "Unauthorized": {
        "description": "API key missing or invalid (`unauthorized`).",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "PayloadTooLarge": {
        "description": "sandbox - body over 1 MiB (`payload_too_large`, D9).",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "UnsupportedMediaType": {
        "description": "sandbox - body not sent as `application/json` (`unsupported_media_type`, D9).",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "TooManyRequests": {
        "description": "Rate limit exceeded (`rate_limited`) or key temporarily banned (`temporarily_banned`).",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          },
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "InsufficientStorage": {
        "description": "sandbox - the sandbox stores at most its `maxPets` (`--max-pets`, default 1000000) pets; a create beyond it stores nothing (`storage_full`) and spends quota like any answered request.\n",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "UnexpectedError": {
        "description": "Any other error, as an Error body whose `status` equals the HTTP status.",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "DeprecatedError": {
        "description": "An error of the deprecated getPet; carries the deprecation headers too.",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          },
          "Deprecation": {
            "$ref": "#/components/headers/Deprecation"
          },
          "Sunset": {
            "$ref": "#/components/headers/Sunset"
          },
          "Link": {
            "$ref": "#/components/headers/Link"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "DeprecatedTooManyRequests": {
        "description": "429 of the deprecated getPet.",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          },
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          },
          "Deprecation": {
            "$ref": "#/components/headers/Deprecation"
          },
          "Sunset": {
            "$ref": "#/components/headers/Sunset"
          },
          "Link": {
            "$ref": "#/components/headers/Link"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      }
    }
  }
}
