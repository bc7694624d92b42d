// A competent Express 5 implementation of the same two endpoints: jose with the key
// imported once, a pg Pool, the same owner-scoped queries.
import { createSecretKey } from 'node:crypto';
import express from 'express';
import { jwtVerify } from 'jose';
import pg from 'pg';

const key = createSecretKey(Buffer.from(process.env.JWT_SECRET ?? '', 'utf8'));
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = express();

app.use(async (req, res, next) => {
  const header = req.headers.authorization ?? '';
  try {
    const { payload } = await jwtVerify(header.slice(7), key, {
      algorithms: ['HS256'],
      issuer: 'site-optimization-service',
      audience: 'site-optimization-api',
    });
    res.locals.userId = payload.sub;
    next();
  } catch {
    res.status(401).json({ error: 'unauthorized' });
  }
});

app.get('/api/v1/sites', async (_req, res) => {
  const { rows } = await pool.query(
    'select id, name, domain, platform, is_active, created_at from sites where owner_id = $1 order by created_at desc, id',
    [res.locals.userId],
  );
  res.json({ items: rows, total: rows.length });
});

app.get('/api/v1/sites/:id', async (req, res) => {
  const { rows } = await pool.query(
    'select id, name, domain, platform, is_active, health_score, created_at, updated_at from sites where id = $1 and owner_id = $2',
    [req.params.id, res.locals.userId],
  );
  if (rows.length === 0) res.status(404).json({ error: 'not found' });
  else res.json(rows[0]);
});

app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
