import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render';
import { decodeBase64Text, PemInput } from './PemInput';

/** XHR that answers every upload with `reply` (the client's `upload` uses XHR for progress). */
function fakeXhr(reply: unknown) {
  const sent: { url: string; body: FormData }[] = [];
  class FakeXHR {
    status = 200;
    responseText = JSON.stringify(reply);
    upload = {};
    url = '';
    onload?: () => void;
    open(_m: string, url: string) {
      this.url = url;
    }
    setRequestHeader() {}
    send(body: FormData) {
      sent.push({ url: this.url, body });
      setTimeout(() => this.onload?.(), 0);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXHR);
  return sent;
}

function Harness() {
  const [value, setValue] = useState('');
  return <PemInput value={value} onChange={setValue} data-testid="pem" />;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('PemInput', () => {
  it('decodes the base64 answer of api/getfilebase64 as UTF-8 text', () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    expect(decodeBase64Text(btoa(pem))).toBe(pem);
    expect(decodeBase64Text('w6k=')).toBe('é');
  });

  it('reads a picked file through api/getfilebase64 into the box', async () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    const sent = fakeXhr({ ret: 0, file: 'a.pem', base64: btoa(pem) });
    renderWithProviders(<Harness />);
    const file = new File([pem], 'a.pem', { type: 'application/x-pem-file' });
    fireEvent.change(screen.getByTestId('pem-file'), { target: { files: [file] } });
    await waitFor(() => expect((screen.getByTestId('pem') as HTMLTextAreaElement).value).toBe(pem.trim()));
    expect(sent).toHaveLength(1);
    expect(sent[0].url).toMatch(/^api\/getfilebase64\?/);
    expect((sent[0].body.get('file') as File).name).toBe('a.pem');
  });
});
