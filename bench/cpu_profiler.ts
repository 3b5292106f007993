// A CPU profile of one stretch of a server's work: the server runs with the inspector on a
// local port, and the profiler is started and stopped over the DevTools protocol around the
// work alone, so start-up and other phases stay out of it (node --cpu-prof records them all).
import { writeFileSync } from 'node:fs';

type Reply = { id: number; result?: { profile?: unknown }; error?: { message: string } };

export async function profileWhile(inspectorPort: number, file: string, work: () => Promise<unknown>): Promise<void> {
  const [target] = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((open, fail) => {
    socket.addEventListener('open', open, { once: true });
    socket.addEventListener('error', fail, { once: true });
  });
  const pending = new Map<number, (reply: Reply) => void>();
  socket.addEventListener('message', (event) => {
    const reply = JSON.parse(String(event.data)) as Reply;
    pending.get(reply.id)?.(reply);
    pending.delete(reply.id);
  });
  let id = 0;
  const call = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Reply>((answered, fail) => {
      const sent = ++id;
      pending.set(sent, (reply) => (reply.error ? fail(new Error(`${method}: ${reply.error.message}`)) : answered(reply)));
      socket.send(JSON.stringify({ id: sent, method, params }));
    });
  try {
    await call('Profiler.enable');
    // 200 µs between samples (V8's default is 1 ms): enough samples from a few seconds of logins.
    await call('Profiler.setSamplingInterval', { interval: 200 });
    await call('Profiler.start');
    await work();
    const stopped = await call('Profiler.stop');
    writeFileSync(file, JSON.stringify(stopped.result!.profile));
  } finally {
    socket.close();
  }
}
