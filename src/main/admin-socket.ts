import { chmodSync, rmSync } from 'node:fs';
import { type Server, createConnection, createServer } from 'node:net';
import type { CommandResult } from './operator-commands.ts';

/**
 * A local socket in the data folder through which the CLI hands account commands to the running server
 * (embedded mode: only the server may open the PGlite folder). Only users who can read the data folder can
 * reach it (mode 0600); it speaks one JSON line each way.
 */
export function listenAdminSocket(
  path: string,
  run: (argv: string[]) => Promise<CommandResult>,
): Promise<Server> {
  rmSync(path, { force: true });
  const server = createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > 65_536) socket.destroy();
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      let argv: string[];
      try {
        argv = JSON.parse(buffer.slice(0, newline)).argv;
        if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) throw new Error('bad request');
      } catch {
        socket.end(`${JSON.stringify({ code: 2, out: [], err: ['malformed admin request'] })}\n`);
        return;
      }
      run(argv).then(
        (result) => socket.end(`${JSON.stringify(result)}\n`),
        (error: Error) =>
          socket.end(`${JSON.stringify({ code: 1, out: [], err: [`error: ${error.message}`] })}\n`),
      );
    });
    socket.on('error', () => {});
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      chmodSync(path, 0o600);
      resolve(server);
    });
  });
}

export function sendAdminCommand(path: string, argv: string[], timeoutMs = 15_000): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let buffer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('the running server did not answer in time'));
    }, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ argv })}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
    });
    socket.on('end', () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(buffer));
      } catch {
        reject(new Error('the running server sent a malformed answer'));
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
