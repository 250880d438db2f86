import net from "node:net";

/**
 * A TCP proxy on 127.0.0.1 in front of a real server that can stop forwarding bytes and start again:
 * what a client sees of a database stopped with SIGSTOP. Connections are still accepted (the kernel
 * does that for a stopped server too), but nothing comes back until `resume()`; bytes sent
 * meanwhile are held, then delivered in order.
 */
export interface PausableProxy {
  /** `target` with its host and port replaced by the proxy's. */
  url: string;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

interface Direction {
  /** Bytes waiting for resume(); null stands for the sender's end, kept in order behind them. */
  held: (Buffer | null)[];
  to: net.Socket;
}

function deliver(direction: Direction, chunk: Buffer | null): void {
  if (chunk) direction.to.write(chunk);
  else direction.to.end();
}

export async function startPausableProxy(target: string): Promise<PausableProxy> {
  const upstream = new URL(target);
  let paused = false;
  const directions = new Set<Direction>();
  const sockets = new Set<net.Socket>();

  const forward = (from: net.Socket, to: net.Socket) => {
    const direction: Direction = { held: [], to };
    directions.add(direction);
    const pass = (chunk: Buffer | null) => {
      if (paused) direction.held.push(chunk);
      else deliver(direction, chunk);
    };
    from.on("data", pass);
    from.on("end", () => pass(null));
    from.on("close", () => directions.delete(direction));
  };

  const server = net.createServer((client) => {
    const server = net.connect({ host: upstream.hostname, port: Number(upstream.port || 5432) });
    for (const socket of [client, server]) {
      sockets.add(socket);
      // A peer that goes away (a pool discarding a hung connection) ends the pair; nothing to report.
      socket.on("error", () => {});
      socket.on("close", () => {
        sockets.delete(socket);
        client.destroy();
        server.destroy();
      });
    }
    forward(client, server);
    forward(server, client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;

  const proxied = new URL(target);
  proxied.hostname = "127.0.0.1";
  proxied.port = String(port);
  return {
    url: proxied.toString(),
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      for (const direction of directions) {
        for (const chunk of direction.held.splice(0)) deliver(direction, chunk);
      }
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
