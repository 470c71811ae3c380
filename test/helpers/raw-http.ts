/** Raw TCP clients for what fetch cannot send: half-sent requests and malformed HTTP. */
import { connect, type Socket } from 'node:net';

/** Connect and write `data` (nothing more); resolves once connected and written. */
export function openSocket(port: number, data = ''): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      if (data) socket.write(data);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the connection. */
export function readUntilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => (text += d));
    socket.on('error', () => {});
    socket.once('close', () => resolve(text));
  });
}

/** Send raw bytes and read the whole answer (the server closes after an error answer). */
export async function rawExchange(port: number, data: string | Buffer): Promise<{ status: number; headers: string; body: string }> {
  const socket = await openSocket(port);
  const done = readUntilClosed(socket);
  socket.write(data);
  const text = await done;
  return parseResponse(text);
}

export function parseResponse(text: string): { status: number; headers: string; body: string } {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body: split < 0 ? '' : text.slice(split + 4) };
}
