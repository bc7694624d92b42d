// The runtime's ceiling: node:http answering the same JSON with no auth and no database.
import http from 'node:http';

const site = JSON.parse(process.env.BENCH_SITE_JSON ?? '{}');
const list = JSON.parse(process.env.BENCH_LIST_JSON ?? '{}');
const siteBody = JSON.stringify(site);
const listBody = JSON.stringify(list);

http
  .createServer((req, res) => {
    const body = req.url === '/api/v1/sites' ? listBody : siteBody;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening'));
