// Review rules on every identifier a statement gives to a new or renamed
// object (contract §10.4, naming.*): letter case and reserved words.
import { definedNames } from "./facts.ts";
import { isReservedWord } from "./reserved-words.ts";
import { BOTH, quoted, rule, type RuleDefinition } from "./rule-definition.ts";
import { choiceField } from "./rule-payload.ts";

export const namingRules: RuleDefinition[] = [
  rule({
    type: "naming.identifier-case",
    title: "Identifier letter case",
    engines: BOTH,
    starred: false,
    fields: { case: choiceField("lower", ["lower", "upper"] as const) },
    statement({ facts }, payload, _context, report) {
      const wanted = payload.case;
      for (const { kind, name } of definedNames(facts)) {
        const fitting = wanted === "lower" ? name.toLowerCase() : name.toUpperCase();
        if (name !== fitting) report(`${kind} name ${quoted(name)} is not ${wanted} case`);
      }
    },
  }),
  rule({
    type: "naming.reserved-words",
    title: "No reserved words as identifiers",
    engines: BOTH,
    starred: false,
    fields: {},
    statement({ facts }, _payload, { engine }, report) {
      for (const { kind, name } of definedNames(facts)) if (isReservedWord(engine, name)) report(`${kind} name ${quoted(name)} is a reserved word`);
    },
  }),
];
