// The SQL operator of a filter term (contract §2.3): `:` and `=` compare
// equal, `!=` differs, and the ordering operators compare times and numbers.
import { sql, type FragmentSqlToken } from "slonik";
import type { FilterOp } from "./filter.ts";

const OPERATORS: Record<FilterOp, FragmentSqlToken> = {
  ":": sql.fragment`=`,
  "=": sql.fragment`=`,
  "!=": sql.fragment`<>`,
  ">": sql.fragment`>`,
  ">=": sql.fragment`>=`,
  "<": sql.fragment`<`,
  "<=": sql.fragment`<=`,
};

export function sqlOperator(op: FilterOp): FragmentSqlToken {
  return OPERATORS[op];
}
