// XLSX (contract §18.10): one sheet, "export", with a header row of the
// column names, written as a stream — the sheet's XML is encoded row by row
// like the text formats and deflated into a ZIP entry (yazl) as it comes,
// pulled as the client reads, so memory stays flat whatever the row count. Booleans and numbers are cells of their
// type (an integer only while a spreadsheet's 15 digits hold it exactly;
// beyond, text); everything else is text as the other formats print it,
// NULL an empty cell. A sheet holds at most 1,048,576 rows and a cell 32,767
// characters: rows beyond stop the export, longer text is cut.
import type { Cell, Column, Row } from "../cells.ts";
import { cellText, isIntegerText } from "./cell-text.ts";
import type { RowText } from "./text-chunks.ts";
import { Readable } from "node:stream";
import { ZipFile } from "yazl";

export const XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/** Data rows a sheet holds under its header row. */
export const XLSX_MAX_ROWS = 1_048_575;
const MAX_CELL_CHARS = 32_767;
const EXACT_DIGITS = 15;

const SHEET_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = "</sheetData></worksheet>";
// XML 1.0 cannot hold these characters; OOXML writes them (and a literal "_xHHHH_") as _xHHHH_.
const UNSAFE = /[&<>\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|_(?=x[0-9A-Fa-f]{4}_)/g;
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", _: "_x005F_" };

/** The sheet's XML as a text format. */
export function sheetText(columns: readonly Column[]): RowText {
  return {
    head: `${SHEET_HEAD}<row>${columns.map((c) => textCell(c.name)).join("")}</row>`,
    row: (row) => sheetRow(columns, row),
    tail: SHEET_TAIL,
  };
}

function sheetRow(columns: readonly Column[], row: Row): string {
  let xml = "<row>";
  for (let i = 0; i < row.length; i++) xml += sheetCell(columns[i]!, row[i]!);
  return `${xml}</row>`;
}

function sheetCell(column: Column, cell: Cell): string {
  if (cell === null) return "<c/>";
  if (typeof cell === "boolean") return `<c t="b"><v>${cell ? 1 : 0}</v></c>`;
  if (typeof cell === "number" && Number.isFinite(cell)) return `<c><v>${cell}</v></c>`;
  if (isIntegerText(column, cell) && cell.replace("-", "").length <= EXACT_DIGITS) return `<c><v>${cell}</v></c>`;
  return textCell(cellText(cell));
}

function textCell(text: string): string {
  const cut = text.length > MAX_CELL_CHARS ? text.slice(0, MAX_CELL_CHARS) : text;
  return `<c t="inlineStr"><is><t xml:space="preserve">${cut.replace(UNSAFE, escaped)}</t></is></c>`;
}

function escaped(char: string): string {
  return ENTITIES[char] ?? `_x${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}_`;
}

/** The workbook around the sheet: the ZIP's fixed parts, then the sheet as it comes. */
export function xlsxChunks(sheet: AsyncIterable<Buffer>, now = new Date()): AsyncIterable<Buffer> {
  const zip = new ZipFile();
  for (const [name, xml] of Object.entries(FIXED_PARTS)) zip.addBuffer(Buffer.from(xml), name, { mtime: now });
  const sheetBytes = Readable.from(sheet, { objectMode: false });
  const output = zip.outputStream as Readable;
  // yazl leaves an entry's failing stream unheard (an uncaught error): the
  // rows' failure fails the file instead, and a file closed early stops the rows.
  sheetBytes.once("error", (error) => output.destroy(error));
  output.once("close", () => sheetBytes.destroy());
  zip.addReadStream(sheetBytes, "xl/worksheets/sheet1.xml", { mtime: now });
  zip.end();
  return output;
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships";
const OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const SPREADSHEET = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

const FIXED_PARTS: Record<string, string> = {
  "[Content_Types].xml":
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
    "</Types>",
  "_rels/.rels": `${XML}<Relationships xmlns="${RELATIONSHIPS}"><Relationship Id="rId1" Type="${OFFICE}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  "xl/workbook.xml": `${XML}<workbook xmlns="${SPREADSHEET}" xmlns:r="${OFFICE}"><sheets><sheet name="export" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  "xl/_rels/workbook.xml.rels": `${XML}<Relationships xmlns="${RELATIONSHIPS}"><Relationship Id="rId1" Type="${OFFICE}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
};

/** What the fixed parts and the ZIP's records add to the sheet (whose XML deflates to fewer bytes than it has): the sheet's bound is the file's less this. */
export const XLSX_OVERHEAD_BYTES = 4096;
