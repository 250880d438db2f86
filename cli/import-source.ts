import { readFile, stat } from "node:fs/promises";
import { CommandError } from "@/lib/cli/errors";
import { IMPORT_LIMITS } from "@/lib/data/import-reports";

const tooLarge = (what: string) =>
  new CommandError(`${what} is larger than ${IMPORT_LIMITS.maxBytes / 1024 / 1024} MB; split it into several imports.`);

/** Reads an import file, or standard input for "-", refusing anything over the size limit before reading it all. */
export async function readImportSource(file: string, stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  if (file === "-") {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stdin) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size > IMPORT_LIMITS.maxBytes) throw tooLarge("Standard input");
      chunks.push(buffer);
    }
    return Buffer.concat(chunks).toString("utf8");
  }
  let info;
  try {
    info = await stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CommandError(code === "ENOENT" ? `No such file: ${file}` : `Cannot read ${file} (${code}).`);
  }
  if (!info.isFile()) throw new CommandError(`${file} is not a file.`);
  if (info.size > IMPORT_LIMITS.maxBytes) throw tooLarge(file);
  return readFile(file, "utf8");
}
