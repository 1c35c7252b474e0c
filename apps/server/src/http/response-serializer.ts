import type { FastifySerializerCompiler } from "fastify";
import { InvalidSchemaError, ResponseSerializationError } from "fastify-type-provider-zod";
import { z } from "zod";

/**
 * Every JSON answer is checked against the contract's response schema, stripped of what the schema does not name
 * (so an internal column never leaves the server), then written with `JSON.stringify`.
 *
 * `fastify-type-provider-zod`'s own serializer does the check with zod's `safeEncode`, which skips zod's compiled
 * object parser: a 50-row queue page took 560 µs there against 256 µs through `safeParse` (docs/operations.md,
 * "Speed at scale, fourth round"). For the response schemas the two give the same answer — encoding differs from
 * parsing only across transforms and codecs, and `responseSchemaProblems` (tested over the whole route table) keeps
 * those out of every response schema; handlers are typed to return the schema's input, which is what a parse takes.
 * Every route gives its response as a zod schema (http/register-route.ts); anything else is refused at registration.
 */
export const serializeResponse: FastifySerializerCompiler<unknown> = ({ schema, method, url }) => {
  if (!(schema instanceof z.ZodType)) throw new InvalidSchemaError(JSON.stringify(schema));
  const compiled = compiledOnce(schema);
  return (data) => {
    const result = compiled.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};

const compiledSchemas = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The schema with zod's generated parser in front (`z.compile`): the same answer and the same errors, since an
 * input the generated code does not accept is handed to zod's own parser, and the generated code skips the runtime
 * parser's per-node dispatch (docs/operations.md, "Responses parsed by compiled schemas"). A schema the generator
 * cannot model (a recursive one) comes back as it was. Compiled once per schema: the 4XX and 5XX envelopes are
 * shared by every route.
 */
function compiledOnce(schema: z.ZodType): z.ZodType {
  let compiled = compiledSchemas.get(schema);
  if (!compiled) {
    compiled = z.compile(schema);
    compiledSchemas.set(schema, compiled);
  }
  return compiled;
}

/**
 * The parts of a response schema where parsing and encoding part ways (a transform, a pipe or codec, a preprocess):
 * paths from the root, empty when there are none. A response schema with any of them would need zod's encode.
 */
export function responseSchemaProblems(schema: z.ZodType): string[] {
  const problems: string[] = [];
  const seen = new Set<unknown>();
  const visit = (node: z.ZodType, path: string): void => {
    if (seen.has(node)) return;
    seen.add(node);
    const def = node._zod.def as unknown as Record<string, unknown> & { type: string };
    if (def.type === "transform" || def.type === "pipe") problems.push(`${path || "(root)"}: ${def.type}`);
    for (const [key, value] of Object.entries(def)) {
      if (key === "getter" && typeof value === "function") visit(value() as z.ZodType, path);
      else
        for (const [childPath, child] of childSchemas(value, key))
          visit(child, path ? `${path}.${childPath}` : childPath);
    }
  };
  visit(schema, "");
  return problems;
}

/** The schemas a definition's entry holds: itself, the members of an array (union options), the values of a shape. */
function childSchemas(value: unknown, key: string): [string, z.ZodType][] {
  if (value instanceof z.ZodType) return [[key, value]];
  if (Array.isArray(value)) {
    return value.flatMap((item, index) =>
      item instanceof z.ZodType ? [[`${key}[${index}]`, item] as [string, z.ZodType]] : [],
    );
  }
  if (key === "shape" && typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([name, item]) =>
      item instanceof z.ZodType ? [[name, item] as [string, z.ZodType]] : [],
    );
  }
  return [];
}
