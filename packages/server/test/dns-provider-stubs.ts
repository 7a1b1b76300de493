// Local HTTPS stand-ins for the cloud DNS APIs. Each one checks the credentials the way the
// provider documents them — the request signatures are recomputed here, written separately
// from the code under test, from the raw request as it arrived — keeps records in memory and
// answers in the provider's shapes, including its error answers. The store holds one entry per
// value (full name, TXT values without quotes); APIs that speak in RRsets (Huawei, deSEC,
// GoDaddy) group them by name and type, and those that want TXT values quoted get and give
// them quoted.
import { createHash, createHmac } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface StubRecord {
  id: string;
  name: string;
  type: string;
  value: string;
  ttl: number;
}

export interface StubRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  rawQuery: string;
  headers: Record<string, string>;
  body: string;
}

export interface StubReply {
  status?: number;
  body?: unknown;
}

export type StubHandler = (req: StubRequest, store: StubRecord[]) => StubReply;

let certCache: Promise<{ cert: string; key: string }> | undefined;
function testCert() {
  certCache ??= (async () => {
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: 'ddns stub' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    return { cert: pems.cert, key: pems.private };
  })();
  return certCache;
}

export interface Stub {
  url: string;
  /** The stub's certificate, for HttpClients({ ca }). */
  ca: string;
  store: StubRecord[];
  calls: StubRequest[];
  close(): Promise<void>;
}

export async function startStub(handler: StubHandler): Promise<Stub> {
  const { cert, key } = await testCert();
  const store: StubRecord[] = [];
  const calls: StubRequest[] = [];
  const server = https.createServer({ cert, key }, (req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const q = (req.url ?? '').indexOf('?');
      const path = q >= 0 ? req.url!.slice(0, q) : req.url!;
      const rawQuery = q >= 0 ? req.url!.slice(q + 1) : '';
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      const r: StubRequest = {
        method: req.method ?? '',
        path,
        query: new URLSearchParams(rawQuery),
        rawQuery,
        headers,
        body,
      };
      calls.push(r);
      let reply: StubReply;
      try {
        reply = handler(r, store);
      } catch (err) {
        reply = { status: 500, body: { message: String(err) } };
      }
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? {});
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ca: cert,
    store,
    calls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let nextId = 100;
export const newId = () => String(nextId++);
const json = (r: StubRequest) => (r.body ? JSON.parse(r.body) : {});
/** Zone-file TXT spelling (`"v"`), as Huawei Cloud and deSEC want it; undefined when not quoted. */
const quoted = (v: string) => `"${v.replace(/["\\]/g, '\\$&')}"`;
const unquoted = (v: string): string | undefined => {
  const m = /^"((?:[^"\\]|\\.)*)"$/.exec(v);
  return m ? m[1].replace(/\\(.)/g, '$1') : undefined;
};
/** Every value of one name and type. */
const rrsetOf = (store: StubRecord[], name: string, type: string) =>
  store.filter((x) => x.name === name && x.type === type);
const drop = (store: StubRecord[], gone: StubRecord[]) => {
  for (const x of gone) store.splice(store.indexOf(x), 1);
};
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const hmacHex = (k: string | Buffer, m: string) => createHmac('sha256', k).update(m).digest('hex');
/** RFC 3986 unreserved kept, everything else %XX upper case. */
const rfc3986 = (s: string) =>
  Array.from(Buffer.from(s, 'utf8'))
    .map((b) => {
      const c = String.fromCharCode(b);
      return /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');

// ---- Cloudflare: Bearer token ------------------------------------------------------------------
export const CF_TOKEN = 'cf-test-token';
export const cloudflareStub: StubHandler = (r, store) => {
  if (r.headers.authorization !== `Bearer ${CF_TOKEN}`)
    return {
      status: 403,
      body: { success: false, errors: [{ code: 9109, message: 'Invalid access token' }], result: null },
    };
  const ok = (result: unknown) => ({ body: { success: true, errors: [], result } });
  if (r.method === 'GET' && r.path === '/client/v4/zones')
    return ok(r.query.get('name') === 'example.com' ? [{ id: 'zone1', name: 'example.com' }] : []);
  const m = /^\/client\/v4\/zones\/zone1\/dns_records(?:\/(\w+))?$/.exec(r.path);
  if (!m) return { status: 404, body: { success: false, errors: [{ code: 7003, message: 'No route' }] } };
  if (r.method === 'GET')
    return ok(
      store
        .filter((x) => x.name === r.query.get('name') && x.type === r.query.get('type'))
        .map((x) => ({ id: x.id, content: x.value, proxied: false })),
    );
  const b = json(r);
  if (r.method === 'POST') {
    if (rrsetOf(store, b.name, b.type).some((x) => x.value === b.content))
      return {
        status: 400,
        body: { success: false, errors: [{ code: 81058, message: 'An identical record already exists.' }] },
      };
    store.push({ id: newId(), name: b.name, type: b.type, value: b.content, ttl: b.ttl });
    return ok({});
  }
  const rec = store.find((x) => x.id === m[1]);
  if (r.method === 'PUT' && rec) {
    Object.assign(rec, { value: b.content, ttl: b.ttl });
    return ok({});
  }
  if (r.method === 'DELETE' && rec) {
    drop(store, [rec]);
    return ok({ id: rec.id });
  }
  return { status: 404, body: { success: false, errors: [{ code: 81044, message: 'Record does not exist.' }] } };
};

// ---- Alibaba Cloud DNS: RPC signature v1 -------------------------------------------------------
export const ALI = { id: 'ali-id', secret: 'ali-secret' };
function aliyunOk(q: URLSearchParams): boolean {
  const params = [...q.entries()].filter(([k]) => k !== 'Signature');
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const canonical = params.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).join('&');
  const toSign = `GET&${rfc3986('/')}&${rfc3986(canonical)}`;
  const expect = createHmac('sha1', `${ALI.secret}&`).update(toSign).digest('base64');
  const fresh = Math.abs(Date.parse(q.get('Timestamp') ?? '') - Date.now()) < 15 * 60_000;
  return q.get('Signature') === expect && q.get('AccessKeyId') === ALI.id && fresh && Boolean(q.get('SignatureNonce'));
}
export const alidnsStub: StubHandler = (r, store) => {
  const q = r.query;
  if (!aliyunOk(q))
    return {
      status: 400,
      body: { Code: 'SignatureDoesNotMatch', Message: 'Specified signature is not matched with our calculation.' },
    };
  const rr = q.get('RR') ?? '';
  const fq = (sub: string, root: string) => (sub === '@' ? root : `${sub}.${root}`);
  switch (q.get('Action')) {
    case 'DescribeSubDomainRecords': {
      const name = (q.get('SubDomain') ?? '').replace(/^@\./, '');
      const list = store.filter((x) => x.name === name && x.type === q.get('Type'));
      return {
        body: {
          TotalCount: list.length,
          DomainRecords: {
            Record: list.map((x) => ({
              RecordId: x.id,
              RR: x.name.split('.')[0],
              Type: x.type,
              Value: x.value,
              TTL: x.ttl,
            })),
          },
        },
      };
    }
    case 'AddDomainRecord': {
      const id = newId();
      if (rrsetOf(store, fq(rr, q.get('DomainName')!), q.get('Type')!).some((x) => x.value === q.get('Value')))
        return { status: 400, body: { Code: 'DomainRecordDuplicate', Message: 'The DNS record already exists.' } };
      store.push({
        id,
        name: fq(rr, q.get('DomainName')!),
        type: q.get('Type')!,
        value: q.get('Value')!,
        ttl: Number(q.get('TTL')),
      });
      return { body: { RecordId: id } };
    }
    case 'UpdateDomainRecord': {
      const rec = store.find((x) => x.id === q.get('RecordId'));
      if (!rec) return { status: 400, body: { Code: 'DomainRecordNotBelongToUser', Message: 'no such record' } };
      if (rec.value === q.get('Value'))
        return { status: 400, body: { Code: 'DomainRecordDuplicate', Message: 'same' } };
      rec.value = q.get('Value')!;
      return { body: { RecordId: rec.id } };
    }
    case 'DeleteDomainRecord': {
      const rec = store.find((x) => x.id === q.get('RecordId'));
      if (!rec) return { status: 400, body: { Code: 'DomainRecordNotBelongToUser', Message: 'no such record' } };
      drop(store, [rec]);
      return { body: { RecordId: rec.id } };
    }
    default:
      return { status: 400, body: { Code: 'InvalidAction', Message: 'unknown action' } };
  }
};

// ---- DNSPod / Tencent Cloud API 3.0: TC3-HMAC-SHA256 --------------------------------------------
export const TC = { id: 'AKIDtest', secret: 'tc-secret-key' };
function tc3Ok(r: StubRequest): boolean {
  const m =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/(\w+)\/tc3_request, SignedHeaders=([\w;-]+), Signature=([0-9a-f]{64})$/.exec(
      r.headers.authorization ?? '',
    );
  if (!m || m[1] !== TC.id || m[3] !== 'dnspod') return false;
  const ts = Number(r.headers['x-tc-timestamp']);
  if (new Date(ts * 1000).toISOString().slice(0, 10) !== m[2] || Math.abs(ts * 1000 - Date.now()) > 300_000)
    return false;
  const names = m[4].split(';');
  const canonHeaders = names.map((n) => `${n}:${(r.headers[n] ?? '').trim().toLowerCase()}\n`).join('');
  const canonical = `${r.method}\n/\n${r.rawQuery}\n${canonHeaders}\n${m[4]}\n${sha256(r.body)}`;
  const toSign = `TC3-HMAC-SHA256\n${ts}\n${m[2]}/${m[3]}/tc3_request\n${sha256(canonical)}`;
  let k: Buffer = createHmac('sha256', `TC3${TC.secret}`).update(m[2]).digest();
  k = createHmac('sha256', k).update(m[3]).digest();
  k = createHmac('sha256', k).update('tc3_request').digest();
  return hmacHex(k, toSign) === m[5];
}
export const dnspodStub: StubHandler = (r, store) => {
  const err = (Code: string, Message: string) => ({ body: { Response: { Error: { Code, Message }, RequestId: 'r' } } });
  if (!tc3Ok(r)) return err('AuthFailure.SignatureFailure', 'The provided credentials could not be validated.');
  if (r.headers['x-tc-version'] !== '2021-03-23') return err('InvalidParameter', 'version');
  const b = json(r);
  const fq = (sub: string) => (sub === '@' ? b.Domain : `${sub}.${b.Domain}`);
  switch (r.headers['x-tc-action']) {
    case 'DescribeRecordList': {
      const list = store.filter((x) => x.name === fq(b.Subdomain) && x.type === b.RecordType);
      if (!list.length) return err('ResourceNotFound.NoDataOfRecord', 'no records');
      return {
        body: {
          Response: {
            RecordList: list.map((x) => ({
              RecordId: Number(x.id),
              Name: b.Subdomain,
              Type: x.type,
              Value: x.value,
              Line: '默认',
            })),
            RequestId: 'r',
          },
        },
      };
    }
    case 'CreateRecord': {
      if (rrsetOf(store, fq(b.SubDomain), b.RecordType).some((x) => x.value === b.Value))
        return err('InvalidParameter.DomainRecordExist', 'the record already exists');
      const id = newId();
      store.push({ id, name: fq(b.SubDomain), type: b.RecordType, value: b.Value, ttl: b.TTL });
      return { body: { Response: { RecordId: Number(id), RequestId: 'r' } } };
    }
    case 'ModifyRecord': {
      const rec = store.find((x) => x.id === String(b.RecordId));
      if (!rec) return err('ResourceNotFound', 'record');
      rec.value = b.Value;
      return { body: { Response: { RecordId: b.RecordId, RequestId: 'r' } } };
    }
    case 'DeleteRecord': {
      const rec = store.find((x) => x.id === String(b.RecordId) && x.name.endsWith(b.Domain));
      if (!rec) return err('ResourceNotFound.NoDataOfRecord', 'record');
      drop(store, [rec]);
      return { body: { Response: { RequestId: 'r' } } };
    }
    default:
      return err('InvalidAction', 'unknown');
  }
};

// ---- Huawei Cloud DNS: SDK-HMAC-SHA256 ----------------------------------------------------------
export const HW = { id: 'HWAKTEST', secret: 'hw-secret-key' };
function huaweiOk(r: StubRequest): boolean {
  const m = /^SDK-HMAC-SHA256 Access=([^,]+), SignedHeaders=([\w;-]+), Signature=([0-9a-f]{64})$/.exec(
    r.headers.authorization ?? '',
  );
  if (!m || m[1] !== HW.id) return false;
  const names = m[2].split(';');
  if (!names.includes('x-sdk-date') || !names.includes('host')) return false;
  const uri = r.path.endsWith('/') ? r.path : `${r.path}/`;
  const query = [...r.query.entries()]
    .map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`)
    .sort()
    .join('&');
  const canonical = [
    r.method,
    uri,
    query,
    names.map((n) => `${n}:${(r.headers[n] ?? '').trim()}\n`).join(''),
    m[2],
    sha256(r.body),
  ].join('\n');
  const toSign = `SDK-HMAC-SHA256\n${r.headers['x-sdk-date']}\n${sha256(canonical)}`;
  return hmacHex(HW.secret, toSign) === m[3];
}
/** Record set ids per store and name/type (an id stays while the set lives). */
const setIds = new WeakMap<StubRecord[], Map<string, string>>();
function setId(store: StubRecord[], name: string, type: string): string {
  const ids = setIds.get(store) ?? new Map<string, string>();
  setIds.set(store, ids);
  const key = `${name}|${type}`;
  const id = ids.get(key) ?? `rs${newId()}`;
  ids.set(key, id);
  return id;
}
export const huaweiStub: StubHandler = (r, store) => {
  if (!huaweiOk(r))
    return {
      status: 401,
      body: { code: 'APIGW.0301', message: 'Incorrect IAM authentication information: verify aksk signature fail' },
    };
  if (r.method === 'GET' && r.path === '/v2/zones')
    return { body: { zones: r.query.get('name') === 'example.com.' ? [{ id: 'z1', name: 'example.com.' }] : [] } };
  const m = /^\/v2\/zones\/z1\/recordsets(?:\/(\w+))?$/.exec(r.path);
  if (!m) return { status: 404, body: { code: 'DNS.0101', message: 'not found' } };
  // One record set per name and type; TXT values are quoted both ways.
  const sets = new Map<string, StubRecord[]>();
  for (const x of store) {
    const id = setId(store, x.name, x.type);
    sets.set(id, [...(sets.get(id) ?? []), x]);
  }
  const show = (x: StubRecord) => (x.type === 'TXT' ? quoted(x.value) : x.value);
  if (r.method === 'GET')
    return {
      body: {
        recordsets: [...sets.entries()]
          // The name filter matches by substring, like the API's default fuzzy search.
          .filter(
            ([, xs]) => `${xs[0].name}.`.includes(r.query.get('name') ?? '') && xs[0].type === r.query.get('type'),
          )
          .map(([id, xs]) => ({ id, name: `${xs[0].name}.`, type: xs[0].type, records: xs.map(show), ttl: xs[0].ttl })),
      },
    };
  const b = json(r);
  const values = (type: string, records: string[]): string[] | undefined => {
    if (type !== 'TXT') return records;
    const v = records.map(unquoted);
    return v.every((x) => x !== undefined) ? (v as string[]) : undefined;
  };
  const invalid = { status: 400, body: { code: 'DNS.0303', message: 'Invalid record: a TXT value must be quoted.' } };
  if (r.method === 'POST') {
    const name = b.name.replace(/\.$/, '');
    if (rrsetOf(store, name, b.type).length)
      return { status: 400, body: { code: 'DNS.0312', message: 'The record set already exists.' } };
    const vs = values(b.type, b.records);
    if (!vs) return invalid;
    for (const v of vs) store.push({ id: newId(), name, type: b.type, value: v, ttl: b.ttl });
    return { status: 202, body: {} };
  }
  const set = m[1] ? sets.get(m[1]) : undefined;
  if (r.method === 'PUT' && set) {
    const vs = values(set[0].type, b.records);
    if (!vs) return invalid;
    const { name, type } = set[0];
    drop(store, set);
    for (const v of vs) store.push({ id: newId(), name, type, value: v, ttl: b.ttl ?? set[0].ttl });
    return { status: 202, body: {} };
  }
  if (r.method === 'DELETE' && set) {
    drop(store, set);
    return { status: 202, body: {} };
  }
  return { status: 404, body: { code: 'DNS.0304', message: 'record set not found' } };
};

// ---- Baidu Cloud BCD: bce-auth-v1 ---------------------------------------------------------------
export const BD = { id: 'bd-ak', secret: 'bd-sk' };
function bceOk(r: StubRequest): boolean {
  const parts = (r.headers.authorization ?? '').split('/');
  if (parts.length !== 6 || parts[0] !== 'bce-auth-v1' || parts[1] !== BD.id) return false;
  const [, , ts, exp, signed, sig] = parts;
  if (Math.abs(Date.parse(ts) - Date.now()) > Number(exp) * 1000) return false;
  const names = signed ? signed.split(';') : ['host', 'content-type', 'content-length', 'content-md5'];
  const canonHeaders = names
    .filter((n) => r.headers[n] !== undefined)
    .map((n) => `${rfc3986(n)}:${rfc3986(r.headers[n].trim())}`)
    .sort()
    .join('\n');
  const canonical = `${r.method}\n${rfc3986(r.path).replace(/%2F/g, '/')}\n\n${canonHeaders}`;
  const signingKey = hmacHex(BD.secret, `bce-auth-v1/${BD.id}/${ts}/${exp}`);
  return hmacHex(signingKey, canonical) === sig && r.headers['x-bce-date'] === ts;
}
export const baiduStub: StubHandler = (r, store) => {
  if (!bceOk(r))
    return { status: 403, body: { code: 'AccessDenied', message: 'signature does not match', requestId: 'r' } };
  const b = json(r);
  if (r.path === '/v1/domain/resolve/list')
    return {
      body: {
        totalCount: store.length,
        result: store
          .filter((x) => x.name.endsWith(b.domain))
          .map((x) => ({
            recordId: Number(x.id),
            domain: x.name === b.domain ? '@' : x.name.slice(0, -(b.domain.length + 1)),
            view: 'DEFAULT',
            rdtype: x.type,
            ttl: x.ttl,
            rdata: x.value,
            zoneName: b.domain,
          })),
      },
    };
  if (r.path === '/v1/domain/resolve/add') {
    const name = b.domain === '@' ? b.zoneName : `${b.domain}.${b.zoneName}`;
    if (rrsetOf(store, name, b.rdType).some((x) => x.value === b.rdata))
      return { status: 400, body: { code: 'DuplicateRecord', message: 'the record already exists' } };
    store.push({
      id: newId(),
      name,
      type: b.rdType,
      value: b.rdata,
      ttl: b.ttl,
    });
    return { body: {} };
  }
  if (r.path === '/v1/domain/resolve/edit') {
    const rec = store.find((x) => x.id === String(b.recordId));
    if (!rec) return { status: 400, body: { code: 'InvalidParameter', message: 'record' } };
    rec.value = b.rdata;
    return { body: {} };
  }
  if (r.path === '/v1/domain/resolve/delete') {
    const rec = store.find((x) => x.id === String(b.recordId) && x.name.endsWith(b.zoneName ?? '\0'));
    if (!rec) return { status: 400, body: { code: 'InvalidParameter', message: 'record' } };
    drop(store, [rec]);
    return { body: {} };
  }
  return { status: 404, body: { code: 'NoSuchKey', message: 'path' } };
};

// ---- GoDaddy: sso-key --------------------------------------------------------------------------
export const GD = { id: 'gd-key', secret: 'gd-secret' };
export const godaddyStub: StubHandler = (r, store) => {
  if (r.headers.authorization !== `sso-key ${GD.id}:${GD.secret}`)
    return {
      status: 401,
      body: { code: 'UNABLE_TO_AUTHENTICATE', message: 'Unauthorized : Could not authenticate API key/secret' },
    };
  const m = /^\/v1\/domains\/([^/]+)\/records\/(A|AAAA|TXT)\/([^/]+)$/.exec(r.path);
  if (!m) return { status: 404, body: { code: 'NOT_FOUND', message: 'path' } };
  const name = m[3] === '@' ? m[1] : `${decodeURIComponent(m[3])}.${m[1]}`;
  const mine = store.filter((x) => x.name === name && x.type === m[2]);
  if (r.method === 'GET') return { body: mine.map((x) => ({ data: x.value, name: m[3], ttl: x.ttl, type: x.type })) };
  if (r.method === 'PUT') {
    const b = json(r) as { data: string; ttl: number }[];
    if (b.some((x) => x.ttl < 600)) return { status: 422, body: { code: 'INVALID_BODY', message: 'ttl below 600' } };
    drop(store, mine);
    for (const x of b) store.push({ id: newId(), name, type: m[2], value: x.data, ttl: x.ttl });
    return { body: '' };
  }
  if (r.method === 'DELETE') {
    if (!mine.length) return { status: 404, body: { code: 'NOT_FOUND', message: 'no records' } };
    drop(store, mine);
    return { status: 204, body: '' };
  }
  return { status: 405, body: {} };
};

// ---- Porkbun: keys in the body -----------------------------------------------------------------
export const PB = { id: 'pk1_test', secret: 'sk1_test' };
export const porkbunStub: StubHandler = (r, store) => {
  const b = json(r);
  if (b.apikey !== PB.id || b.secretapikey !== PB.secret)
    return { status: 400, body: { status: 'ERROR', message: 'Invalid API key. (002)' } };
  const parts = r.path.split('/').slice(5).map(decodeURIComponent); // after /api/json/v3/dns
  const [op, root, type, sub = ''] = parts;
  const name = sub ? `${sub}.${root}` : root;
  if (op === 'retrieveByNameType')
    return {
      body: {
        status: 'SUCCESS',
        records: store
          .filter((x) => x.name === name && x.type === type)
          .map((x) => ({ id: x.id, name, type, content: x.value, ttl: String(x.ttl) })),
      },
    };
  if (op === 'editByNameType') {
    for (const x of store.filter((y) => y.name === name && y.type === type)) x.value = b.content;
    return { body: { status: 'SUCCESS' } };
  }
  if (op === 'create') {
    if (rrsetOf(store, b.name ? `${b.name}.${root}` : root, b.type).some((x) => x.value === b.content))
      return { status: 400, body: { status: 'ERROR', message: 'A record with that content already exists.' } };
    const id = newId();
    store.push({ id, name: b.name ? `${b.name}.${root}` : root, type: b.type, value: b.content, ttl: Number(b.ttl) });
    return { body: { status: 'SUCCESS', id } };
  }
  if (op === 'delete') {
    const rec = store.find((x) => x.id === type && x.name.endsWith(root));
    if (!rec) return { status: 400, body: { status: 'ERROR', message: 'Invalid record ID.' } };
    drop(store, [rec]);
    return { body: { status: 'SUCCESS' } };
  }
  return { status: 404, body: { status: 'ERROR', message: 'unknown' } };
};

// ---- dynv6: Bearer token; the zone holds its apex address ----------------------------------------
export const DV6_TOKEN = 'dv6-token';
export const dynv6Zone = { id: 7, name: 'home.dynv6.net', ipv4address: '', ipv6prefix: '' };
export const dynv6Stub: StubHandler = (r, store) => {
  if (r.headers.authorization !== `Bearer ${DV6_TOKEN}`) return { status: 401, body: { error: 'Unauthorized' } };
  if (r.path === '/api/v2/zones' && r.method === 'GET') return { body: [dynv6Zone] };
  if (r.path === '/api/v2/zones/7' && r.method === 'PATCH') {
    Object.assign(dynv6Zone, json(r));
    return { body: dynv6Zone };
  }
  if (r.path === '/api/v2/zones/7/records') {
    const sub = (x: StubRecord) => x.name.slice(0, -(dynv6Zone.name.length + 1));
    if (r.method === 'GET')
      return { body: store.map((x) => ({ id: Number(x.id), zoneID: 7, name: sub(x), type: x.type, data: x.value })) };
    const b = json(r);
    store.push({ id: newId(), name: `${b.name}.${dynv6Zone.name}`, type: b.type, value: b.data, ttl: 0 });
    return { body: b };
  }
  const m = /^\/api\/v2\/zones\/7\/records\/(\d+)$/.exec(r.path);
  const rec = m && store.find((x) => x.id === m[1]);
  if (rec && r.method === 'PATCH') {
    rec.value = json(r).data;
    return { body: {} };
  }
  if (rec && r.method === 'DELETE') {
    drop(store, [rec]);
    return { status: 204, body: '' };
  }
  return { status: 404, body: { error: 'not found' } };
};

// ---- deSEC: Token ----------------------------------------------------------------------------------
export const DS_TOKEN = 'desec-token';
export const desecStub: StubHandler = (r, store) => {
  if (r.headers.authorization !== `Token ${DS_TOKEN}`) return { status: 401, body: { detail: 'Invalid token.' } };
  if (r.path === '/api/v1/domains/') return { body: [{ name: 'dedyn.io' }, { name: 'me.dedyn.io' }] };
  const m = /^\/api\/v1\/domains\/([^/]+)\/rrsets\/(?:([^/]+)\/(A|AAAA|TXT)\/)?$/.exec(r.path);
  if (!m) return { status: 404, body: { detail: 'Not found.' } };
  const fq = (sub: string) => (sub === '@' || sub === '' ? m[1] : `${sub}.${m[1]}`);
  // RRsets; TXT values travel quoted.
  const values = (type: string, records: string[]): string[] | undefined => {
    if (type !== 'TXT') return records;
    const v = records.map(unquoted);
    return v.every((x) => x !== undefined) ? (v as string[]) : undefined;
  };
  const invalid = { status: 400, body: { records: ['Invalid TXT content: a value must be quoted.'] } };
  if (!m[2] && r.method === 'POST') {
    const b = json(r);
    if (b.ttl < 3600) return { status: 400, body: { ttl: ['Ensure this value is greater than or equal to 3600.'] } };
    const name = fq(b.subname);
    if (rrsetOf(store, name, b.type).length)
      return { status: 400, body: { non_field_errors: ['Another RRset with the same subdomain and type exists.'] } };
    const vs = values(b.type, b.records);
    if (!vs) return invalid;
    for (const v of vs) store.push({ id: newId(), name, type: b.type, value: v, ttl: b.ttl });
    return { status: 201, body: b };
  }
  const set = rrsetOf(store, fq(decodeURIComponent(m[2])), m[3]);
  if (r.method === 'GET')
    return set.length
      ? {
          body: {
            subname: m[2],
            type: m[3],
            records: set.map((x) => (x.type === 'TXT' ? quoted(x.value) : x.value)),
            ttl: set[0].ttl,
          },
        }
      : { status: 404, body: { detail: 'Not found.' } };
  if (r.method === 'PATCH' && set.length) {
    const b = json(r);
    const vs = values(m[3], b.records);
    if (!vs) return invalid;
    const { name, type, ttl } = set[0];
    drop(store, set);
    for (const v of vs) store.push({ id: newId(), name, type, value: v, ttl: b.ttl ?? ttl });
    // An empty record list deletes the RRset.
    return vs.length ? { body: {} } : { status: 204, body: '' };
  }
  return { status: 404, body: { detail: 'Not found.' } };
};

// ---- DuckDNS: token in the query, text answers -----------------------------------------------------
export const DUCK_TOKEN = 'duck-token';
export const duckdnsStub: StubHandler = (r, store) => {
  const q = r.query;
  if (r.path !== '/update' || q.get('token') !== DUCK_TOKEN || q.get('domains') !== 'myhome') return { body: 'KO' };
  // One TXT value per domain: `txt=` sets it, `clear=true` empties it.
  if (q.has('txt')) {
    const txt = store.find((x) => x.type === 'TXT');
    if (q.get('clear') === 'true') {
      if (!txt) return { body: 'OK\n\n\nNOCHANGE' };
      drop(store, [txt]);
      return { body: 'OK\n\n\nUPDATED' };
    }
    const value = q.get('txt')!;
    if (txt?.value === value) return { body: `OK\n${value}\n\nNOCHANGE` };
    if (txt) txt.value = value;
    else store.push({ id: newId(), name: 'myhome.duckdns.org', type: 'TXT', value, ttl: 60 });
    return { body: `OK\n${value}\n\nUPDATED` };
  }
  const type = q.has('ipv6') ? 'AAAA' : 'A';
  const value = q.get(type === 'A' ? 'ip' : 'ipv6')!;
  const rec = store.find((x) => x.type === type);
  if (rec?.value === value) return { body: `OK\n${value}\n\nNOCHANGE` };
  if (rec) rec.value = value;
  else store.push({ id: newId(), name: 'myhome.duckdns.org', type, value, ttl: 60 });
  return { body: `OK\n${value}\n\nUPDATED` };
};

// ---- Name.com Core API: HTTP Basic ------------------------------------------------------------------
export const NC = { id: 'nc-user', secret: 'nc-token' };
export const namecomStub: StubHandler = (r, store) => {
  if (r.headers.authorization !== `Basic ${Buffer.from(`${NC.id}:${NC.secret}`).toString('base64')}`)
    return { status: 401, body: { message: 'Unauthenticated' } };
  const m = /^\/core\/v1\/domains\/([^/]+)\/records(?:\/(\d+))?$/.exec(r.path);
  if (!m) return { status: 404, body: { message: 'Not Found' } };
  const host = (x: StubRecord) => (x.name === m[1] ? '' : x.name.slice(0, -(m[1].length + 1)));
  if (r.method === 'GET')
    return {
      body: {
        records: store.map((x) => ({
          id: Number(x.id),
          domainName: m[1],
          host: host(x),
          fqdn: `${x.name}.`,
          type: x.type,
          answer: x.value,
          ttl: x.ttl,
        })),
      },
    };
  const b = json(r);
  if (r.method === 'POST') {
    store.push({ id: newId(), name: b.host ? `${b.host}.${m[1]}` : m[1], type: b.type, value: b.answer, ttl: b.ttl });
    return { body: b };
  }
  const rec = store.find((x) => x.id === m[2]);
  if (r.method === 'PUT' && rec) {
    rec.value = b.answer;
    return { body: b };
  }
  if (r.method === 'DELETE' && rec) {
    drop(store, [rec]);
    return { body: {} };
  }
  return { status: 404, body: { message: 'Not Found' } };
};

// ---- NameSilo: key in the query, reply code 300 --------------------------------------------------
export const NS_KEY = 'ns-key';
export const namesiloStub: StubHandler = (r, store) => {
  const q = r.query;
  const reply = (code: number, detail: string, extra = {}) => ({
    body: { request: { operation: r.path, ip: '127.0.0.1' }, reply: { code, detail, ...extra } },
  });
  if (q.get('key') !== NS_KEY) return reply(110, 'Invalid API Key');
  const domain = q.get('domain')!;
  const fq = (h: string) => (h ? `${h}.${domain}` : domain);
  switch (r.path) {
    case '/api/dnsListRecords': {
      const list = store.map((x) => ({
        record_id: x.id,
        type: x.type,
        host: x.name,
        value: x.value,
        ttl: String(x.ttl),
        distance: 0,
      }));
      // One record comes as an object, like NameSilo's converted XML.
      return reply(300, 'success', list.length ? { resource_record: list.length === 1 ? list[0] : list } : {});
    }
    case '/api/dnsAddRecord': {
      const id = newId();
      store.push({
        id,
        name: fq(q.get('rrhost') ?? ''),
        type: q.get('rrtype')!,
        value: q.get('rrvalue')!,
        ttl: Number(q.get('rrttl')),
      });
      return reply(300, 'success', { record_id: id });
    }
    case '/api/dnsUpdateRecord': {
      const rec = store.find((x) => x.id === q.get('rrid'));
      if (!rec) return reply(280, 'DNS modification error');
      rec.value = q.get('rrvalue')!;
      return reply(300, 'success', { record_id: rec.id });
    }
    case '/api/dnsDeleteRecord': {
      const rec = store.find((x) => x.id === q.get('rrid'));
      if (!rec) return reply(280, 'DNS modification error');
      drop(store, [rec]);
      return reply(300, 'success');
    }
    default:
      return reply(101, 'Invalid operation');
  }
};

// ---- Vercel: Bearer token + teamId --------------------------------------------------------------
export const VC = { token: 'vc-token', team: 'team_1' };
export const vercelStub: StubHandler = (r, store) => {
  if (r.headers.authorization !== `Bearer ${VC.token}`)
    return { status: 403, body: { error: { code: 'forbidden', message: 'Not authorized' } } };
  if (r.query.get('teamId') !== VC.team)
    return { status: 404, body: { error: { code: 'not_found', message: 'team' } } };
  let m = /^\/v4\/domains\/([^/]+)\/records$/.exec(r.path);
  if (m && r.method === 'GET') {
    const root = m[1];
    return {
      body: {
        records: store.map((x) => ({
          id: x.id,
          name: x.name === root ? '' : x.name.slice(0, -(root.length + 1)),
          type: x.type,
          value: x.value,
          ttl: x.ttl,
        })),
      },
    };
  }
  m = /^\/v2\/domains\/([^/]+)\/records$/.exec(r.path);
  if (m && r.method === 'POST') {
    const b = json(r);
    const id = `rec_${newId()}`;
    store.push({ id, name: b.name ? `${b.name}.${m[1]}` : m[1], type: b.type, value: b.value, ttl: b.ttl });
    return { body: { uid: id } };
  }
  m = /^\/v1\/domains\/records\/([^/]+)$/.exec(r.path);
  const rec = m && store.find((x) => x.id === m![1]);
  if (rec && r.method === 'PATCH') {
    rec.value = json(r).value;
    return { body: { id: rec.id } };
  }
  m = /^\/v2\/domains\/([^/]+)\/records\/([^/]+)$/.exec(r.path);
  const gone = m && store.find((x) => x.id === m![2] && x.name.endsWith(m![1]));
  if (gone && r.method === 'DELETE') {
    drop(store, [gone]);
    return { body: {} };
  }
  return { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } };
};
