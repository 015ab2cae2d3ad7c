// CEL conditions of approval rules (contract §7.3), checked with @bufbuild/cel
// when a rule is written, so a misspelt variable or field is refused then,
// not when an issue is created. The syntax tree is walked for the names it
// uses (every branch, including those an evaluation would skip after `&&` or
// `||`), then the condition must evaluate to a bool over sample values.
// Issues evaluate the same conditions over the facts of each change.
import { celEnv, isCelError, parse, plan, run, type CelInput } from "@bufbuild/cel";

type Expr = ReturnType<typeof parse>["expr"];

/** The variables of a CHANGE_DATABASE condition (§7.3), as one change of one target gives them. */
export interface ChangeFacts {
  resource: { environment_id: string; project_id: string; instance_id: string; database_name: string; db_engine: string };
  statement: { sql_type: string; affected_rows: number; text: string };
  plan_check: { max_level: "SUCCESS" | "WARNING" | "ERROR" };
  issue: { creator: string };
}

// Every variable with a sample value of every field it has.
const SAMPLE: ChangeFacts = {
  resource: { environment_id: "prod", project_id: "sample", instance_id: "sample", database_name: "sample", db_engine: "POSTGRES" },
  statement: { sql_type: "ALTER_TABLE", affected_rows: 0, text: "" },
  plan_check: { max_level: "SUCCESS" },
  issue: { creator: "users/sample" },
};
const VARIABLES = Object.keys(SAMPLE);

/** The facts as CEL bindings: each variable a map, affected_rows an int. */
function bindings(facts: ChangeFacts): Record<string, CelInput> {
  return Object.fromEntries(
    Object.entries(facts).map(([name, fields]) => [
      name,
      new Map(Object.entries(fields as Record<string, string | number>).map(([key, value]) => [key, typeof value === "number" ? BigInt(Math.round(value)) : value])),
    ]),
  );
}

/** The reason a condition cannot be used, or undefined when it can. */
export function conditionProblem(expression: string): string | undefined {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(expression);
  } catch (error) {
    return (error as Error).message;
  }
  const unknown = unknownName(parsed.expr, new Set());
  if (unknown) return unknown;
  const value = run(expression, bindings(SAMPLE));
  if (isCelError(value)) return value.message;
  return typeof value === "boolean" ? undefined : "the condition must be true or false";
}

/**
 * The condition as a test of one change. A condition that fails to evaluate
 * (it was checked when written, so only odd values get here) does not match.
 */
export function compileCondition(expression: string): (facts: ChangeFacts) => boolean {
  let evaluate: (input: Record<string, CelInput>) => unknown;
  try {
    evaluate = plan(celEnv(), parse(expression)) as never;
  } catch {
    return () => false;
  }
  return (facts) => {
    try {
      return evaluate(bindings(facts)) === true;
    } catch {
      return false;
    }
  };
}

/** The first variable, field or type the expression names that a change does not have. */
function unknownName(expr: Expr | undefined, locals: ReadonlySet<string>): string | undefined {
  const kind = expr?.exprKind;
  switch (kind?.case) {
    case "identExpr":
      return locals.has(kind.value.name) || VARIABLES.includes(kind.value.name)
        ? undefined
        : `unknown variable "${kind.value.name}"; known: ${VARIABLES.join(", ")}`;
    case "selectExpr": {
      const variable = variableNamed(kind.value.operand, locals);
      return variable ? unknownField(variable, kind.value.field) : unknownName(kind.value.operand, locals);
    }
    case "callExpr": {
      const [operand, key] = kind.value.args;
      const variable = kind.value.function === "_[_]" ? variableNamed(operand, locals) : undefined;
      const field = key?.exprKind.case === "constExpr" && key.exprKind.value.constantKind.case === "stringValue" ? key.exprKind.value.constantKind.value : undefined;
      if (variable && field !== undefined) return unknownField(variable, field);
      return firstUnknown([kind.value.target, ...kind.value.args], locals);
    }
    case "listExpr":
      return firstUnknown(kind.value.elements, locals);
    case "structExpr":
      if (kind.value.messageName) return `unknown type "${kind.value.messageName}"`;
      return firstUnknown(kind.value.entries.flatMap((e) => [e.keyKind.case === "mapKey" ? e.keyKind.value : undefined, e.value]), locals);
    case "comprehensionExpr": {
      const c = kind.value;
      const inner = new Set([...locals, c.iterVar, c.iterVar2, c.accuVar].filter(Boolean));
      return firstUnknown([c.iterRange, c.accuInit], locals) ?? firstUnknown([c.loopCondition, c.loopStep, c.result], inner);
    }
    default:
      return undefined;
  }
}

function firstUnknown(exprs: readonly (Expr | undefined)[], locals: ReadonlySet<string>): string | undefined {
  for (const expr of exprs) {
    const problem = unknownName(expr, locals);
    if (problem) return problem;
  }
  return undefined;
}

/** The change variable `expr` is, when it is one (and not a macro's own variable of that name). */
function variableNamed(expr: Expr | undefined, locals: ReadonlySet<string>): string | undefined {
  const kind = expr?.exprKind;
  if (kind?.case !== "identExpr" || locals.has(kind.value.name)) return undefined;
  return VARIABLES.includes(kind.value.name) ? kind.value.name : undefined;
}

function unknownField(variable: string, field: string): string | undefined {
  const fields = Object.keys(SAMPLE[variable as keyof ChangeFacts]);
  return fields.includes(field) ? undefined : `${variable} has no field "${field}"; known: ${fields.map((f) => `${variable}.${f}`).join(", ")}`;
}
