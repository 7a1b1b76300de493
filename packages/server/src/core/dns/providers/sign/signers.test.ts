// Each signer against the example its provider publishes. These vectors are external: they
// were computed by the provider, not by this code, so they catch canonicalisation mistakes.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aliyunSignature, aliyunStringToSign } from './aliyunRpc.js';
import { bceSign, bceSigningKey } from './bce.js';
import { huaweiCanonicalRequest, huaweiSign } from './huaweiSdk.js';
import { tc3CanonicalRequest, tc3Sign } from './tc3.js';

describe('Alibaba Cloud RPC signature v1 (HMAC-SHA1)', () => {
  // "Request syntax and signature method V2 for RPC APIs" / "Signature mechanism", worked example:
  // DescribeRegions with AccessKeyId testid and AccessKeySecret testsecret.
  const params = {
    Timestamp: '2016-02-23T12:46:24Z',
    Format: 'XML',
    AccessKeyId: 'testid',
    Action: 'DescribeRegions',
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: '3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf',
    Version: '2014-05-26',
    SignatureVersion: '1.0',
  };
  it('builds the documented string to sign', () => {
    expect(aliyunStringToSign('GET', params)).toBe(
      'GET&%2F&AccessKeyId%3Dtestid%26Action%3DDescribeRegions%26Format%3DXML%26SignatureMethod%3DHMAC-SHA1' +
        '%26SignatureNonce%3D3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf%26SignatureVersion%3D1.0' +
        '%26Timestamp%3D2016-02-23T12%253A46%253A24Z%26Version%3D2014-05-26',
    );
  });
  it('gives the documented signature', () => {
    expect(aliyunSignature('GET', params, 'testsecret')).toBe('OLeaidS1JvxuMvnyHOwuJ+uX5qY=');
  });
});

describe('Tencent Cloud API 3.0 TC3-HMAC-SHA256', () => {
  // Tencent Cloud API "Signature v3", worked example: CVM DescribeInstances, timestamp
  // 1551113065, SecretKey Gu5t9xGARNpq86cd98joQYCN3EXAMPLE.
  const input = {
    secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE',
    secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE',
    service: 'cvm',
    host: 'cvm.tencentcloudapi.com',
    timestamp: 1551113065,
    payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
  };
  it('hashes the documented canonical request', () => {
    const canonical = tc3CanonicalRequest(input);
    expect(canonical).toContain('35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064');
    expect(createHash('sha256').update(canonical).digest('hex')).toBe(
      '5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031',
    );
  });
  it('gives the documented signature and Authorization', () => {
    const r = tc3Sign(input);
    expect(r.stringToSign).toBe(
      'TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031',
    );
    expect(r.signature).toBe('72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168');
    expect(r.authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, ' +
        'SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
  });
});

describe('Huawei Cloud SDK-HMAC-SHA256', () => {
  // Huawei Cloud "API Request Signing Guide", worked example: GET VPC list, X-Sdk-Date
  // 20191115T033655Z, AK QTWAOYTTINDUT2QVKYUC (the SK of the example as used by the guide's SDK).
  const req = {
    method: 'GET',
    path: '/v1/77b6a44cba5143ab91d13ab9a8ff44fd/vpcs',
    query: { marker: '13551d6b-755d-4757-b956-536f674975c0', limit: '2' },
    headers: {
      'Content-Type': 'application/json',
      Host: 'service.region.example.com',
      'X-Sdk-Date': '20191115T033655Z',
    },
    body: '',
  };
  it('hashes the documented canonical request', () => {
    const { canonical, signedHeaders } = huaweiCanonicalRequest(req);
    expect(signedHeaders).toBe('content-type;host;x-sdk-date');
    expect(canonical.split('\n').slice(0, 3)).toEqual([
      'GET',
      '/v1/77b6a44cba5143ab91d13ab9a8ff44fd/vpcs/',
      'limit=2&marker=13551d6b-755d-4757-b956-536f674975c0',
    ]);
    expect(createHash('sha256').update(canonical).digest('hex')).toBe(
      'b25362e603ee30f4f25e7858e8a7160fd36e803bb2dfe206278659d71a9bcd7a',
    );
  });
  it('gives the documented Authorization header', () => {
    expect(
      huaweiSign(req, 'QTWAOYTTINDUT2QVKYUC', 'MFyfvK41ba2giqM7Uio6PznpdUKGpownRZlmVmHc', '20191115T033655Z'),
    ).toBe(
      'SDK-HMAC-SHA256 Access=QTWAOYTTINDUT2QVKYUC, SignedHeaders=content-type;host;x-sdk-date, ' +
        'Signature=7be6668032f70418fcc22abc52071e57aff61b84a1d2381bb430d6870f4f6ebe',
    );
  });
});

describe('Baidu Cloud bce-auth-v1', () => {
  // Baidu Cloud "生成认证字符串" (Generate the authentication string), worked example: BOS
  // UploadPart, AK 32×a, SK 32×b, 2015-04-27T08:23:49Z, 1800 s.
  const req = {
    method: 'PUT',
    path: '/v1/test/myfolder/readme.txt',
    query: { partNumber: '9', uploadId: 'a44cc9bab11cbd156984767aad637851' },
    headers: {
      Host: 'bj.bcebos.com',
      Date: 'Mon, 27 Apr 2015 16:23:49 +0800',
      'Content-Type': 'text/plain',
      'Content-Length': '8',
      'Content-Md5': 'NFzcPqhviddjRNnSOGo4rw==',
      'x-bce-date': '2015-04-27T08:23:49Z',
    },
  };
  const o = { ak: 'a'.repeat(32), sk: 'b'.repeat(32), timestamp: '2015-04-27T08:23:49Z' };
  it('gives the documented signing key', () => {
    expect(bceSigningKey(o.sk, `bce-auth-v1/${o.ak}/2015-04-27T08:23:49Z/1800`)).toBe(
      '1d5ce5f464064cbee060330d973218821825ac6952368a482a592e6615aef479',
    );
  });
  it('gives the documented authorization with the default headers', () => {
    expect(bceSign(req, o)).toBe(
      'bce-auth-v1/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/2015-04-27T08:23:49Z/1800//d74a04362e6a848f5b39b15421cb449427f419c95a480fd6b8cf9fc783e2999e',
    );
  });
  it('gives the documented authorization with host;x-bce-date signed', () => {
    expect(bceSign(req, { ...o, signedHeaders: ['host', 'x-bce-date'] })).toBe(
      'bce-auth-v1/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/2015-04-27T08:23:49Z/1800/host;x-bce-date/1b8de5a23a56eef657c69f94c621e7acd227d049a4ba577f537d5e5cebf0cf32',
    );
  });
});
