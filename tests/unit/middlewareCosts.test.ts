/** What the shared middleware must not cost: answers kept whole, requests not rebuilt (docs/performance.md). */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { setAnswerHeader } from '../../src/server/middleware/answerHeader.ts';
import { apiBodyLimit } from '../../src/server/middleware/bodyLimit.ts';

function appAnswering(answer: () => Response): Hono {
  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    setAnswerHeader(c, 'X-Added', 'yes');
  });
  app.get('/', answer);
  return app;
}

describe('setAnswerHeader', () => {
  it('adds a header to an answer a handler made, keeping its status and body', async () => {
    const response = await appAnswering(
      () => new Response('whole', { status: 201, headers: { 'Content-Type': 'text/plain' } }),
    ).request('/');
    expect(response.status).toBe(201);
    expect(response.headers.get('x-added')).toBe('yes');
    expect(await response.text()).toBe('whole');
  });

  it('adds it to an answer whose headers are immutable (Response.redirect) by rebuilding it', async () => {
    const response = await appAnswering(() => Response.redirect('http://localhost/elsewhere', 302)).request('/');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('http://localhost/elsewhere');
    expect(response.headers.get('x-added')).toBe('yes');
  });
});

describe('apiBodyLimit', () => {
  it('never asks a GET or HEAD for its body (that builds a whole Web Request per call), and still limits a POST', async () => {
    const app = new Hono();
    app.use('*', apiBodyLimit({ bodyLimitBytes: 10, uploadLimitBytes: 100 }));
    app.all('/', (c) => c.text('ok'));
    for (const method of ['GET', 'HEAD']) {
      const request = new Request('http://localhost/', { method });
      Object.defineProperty(request, 'body', {
        get() {
          throw new Error('the body of a GET was read');
        },
      });
      expect((await app.request(request)).status).toBe(200);
    }
    const tooLarge = await app.request('/', {
      method: 'POST',
      body: 'x'.repeat(11),
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(tooLarge.status).toBe(413);
  });
});
