/** The baseline for API throughput: a bare Hono hello-world on @hono/node-server. */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const app = new Hono().get('/hello', (c) => c.json({ code: 200, message: 'ok', data: { hello: 'world' } }));
serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT) });
