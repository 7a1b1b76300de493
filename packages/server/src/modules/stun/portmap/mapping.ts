// One port mapping on the upstream router, kept alive: made at start, renewed at half its lease,
// made again with back-off after a failure, deleted at stop. Each change of what holds (mapped at
// which public address and port, or failing for which reason) is reported once through onChange.
//
// 'auto' asks PCP first and falls back to NAT-PMP (RFC 6887 §9) when the gateway answers
// "unsupported version" — or does not answer PCP at all, as some NAT-PMP-only servers drop
// version-2 requests. While probing, PCP gets a short retransmission cap so that the fall-back
// takes seconds, not RFC 6886's two minutes. The method that worked is kept for renewals; after it
// fails the next attempt probes again. UPnP IGD is never tried by 'auto' (the STUN rule has its
// own UPnP switch, and two PortMappings holding one mapping would delete each other's).
import { asPortMapError, type PortMapMethodName } from './errors.js';
import { type MapProtocol, natpmpExternalAddress, natpmpMap, natpmpUnmap } from './natpmp.js';
import { newPcpNonce, pcpMap, pcpUnmap } from './pcp.js';
import { addPortMapping, deletePortMapping, getExternalAddress, type IgdService, openGateway } from './upnp.js';

export type PortMapMethod = PortMapMethodName | 'auto';

export interface PortMappingRequest {
  protocol: MapProtocol;
  /** The host the mapping points to (for NAT-PMP and PCP, also the requests' source address). */
  internalAddress: string;
  internalPort: number;
  /** Asked-for public port (UPnP needs one; NAT-PMP and PCP take 0 as "any" and may give another). */
  externalPort: number;
  /** Seconds. 0 = permanent for UPnP; NAT-PMP and PCP have no permanent mappings and ask for 7200. */
  leaseSec: number;
  description: string;
  /** UPnP: description URL or IPv4 address; NAT-PMP / PCP: IPv4 address. Default: discovery / default route. */
  gateway?: string;
  /** Source address of discovery and requests (the rule's channel address); default internalAddress for NAT-PMP / PCP. */
  localAddress?: string;
}

export interface PortMappingState {
  ok: boolean;
  externalAddress?: string;
  externalPort?: number;
  /** The method that made the mapping (or failed last). */
  method?: PortMapMethodName;
  /** Why not ok: a PortMapError code, with its params and English text. */
  code?: string;
  params?: Record<string, unknown>;
  detail?: string;
}

export interface PortMappingHooks {
  /** Called when the state differs from the last one reported (the first result always). */
  onChange(state: PortMappingState): void;
  /** Called after every successful renewal, also when nothing changed (for logs). */
  onRenew?(state: PortMappingState): void;
}

type TimerHandle = unknown;

export interface PortMappingOptions {
  /** The module's timers (ctx.setTimeout), so the supervisor clears what a stopped module left. */
  setTimeout?: (fn: () => void, ms: number) => TimerHandle;
  clearTimeout?: (t: TimerHandle) => void;
  /** First wait after a failure, doubled per failure up to retryMaxMs (defaults 5 s, 5 min). */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** How often a permanent (lease 0) UPnP mapping is checked and re-added (default 10 min). */
  permanentCheckMs?: number;
  /** Bound on stop's delete (default 3 s). */
  stopTimeoutMs?: number;
  /** UPnP: per step (search, description, each call). */
  httpTimeoutMs?: number;
  /** NAT-PMP / PCP retransmission (RFC 6886: 250 ms, 9 tries). */
  udpInitialTimeoutMs?: number;
  udpMaxTries?: number;
  /** The NAT-PMP / PCP server port (5351); another one only for tests against a fake gateway. */
  gatewayPort?: number;
}

/** What is held at the gateway, for renewals and the delete. */
interface Held {
  method: PortMapMethodName;
  externalAddress: string;
  externalPort: number;
  /** Seconds the gateway granted (0: permanent). */
  lifetimeSec: number;
}

const NATPMP_DEFAULT_LIFETIME = 7200;
const AUTO_PROBE_TRIES = 4;

export class PortMapping {
  private readonly nonce = newPcpNonce();
  private readonly setTimer: (fn: () => void, ms: number) => TimerHandle;
  private readonly clearTimer: (t: TimerHandle) => void;
  private timer: TimerHandle | undefined;
  private running = false;
  private attempt: AbortController | undefined;
  private inFlight: Promise<void> | undefined;
  private held: Held | undefined;
  /** The method that worked last ('auto' starts there). */
  private preferred: PortMapMethodName | undefined;
  private igd: IgdService | undefined;
  private failures = 0;
  private reported: PortMappingState | undefined;

  constructor(
    readonly method: PortMapMethod,
    readonly req: PortMappingRequest,
    private readonly hooks: PortMappingHooks,
    private readonly opts: PortMappingOptions = {},
  ) {
    this.setTimer = opts.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = opts.clearTimeout ?? ((t) => clearTimeout(t as NodeJS.Timeout));
  }

  /** The last state reported, undefined before the first result. */
  get state(): PortMappingState | undefined {
    return this.reported;
  }

  /** Starts mapping; results arrive through the hooks. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.run();
  }

  /** Stops renewing and deletes the mapping (within stopTimeoutMs); never throws. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.timer !== undefined) this.clearTimer(this.timer);
    this.timer = undefined;
    const wasInFlight = this.inFlight !== undefined;
    this.attempt?.abort();
    await this.inFlight;
    // A request cut short may still have made the mapping at the gateway: delete it too.
    const method = this.held?.method ?? (wasInFlight ? (this.preferred ?? this.fixedMethod()) : undefined);
    if (!method) return;
    const signal = AbortSignal.timeout(this.opts.stopTimeoutMs ?? 3000);
    await this.release(method, this.held?.externalPort ?? this.req.externalPort, signal).catch(() => {
      // best effort: an unreachable gateway lets the lease run out
    });
    this.held = undefined;
  }

  private fixedMethod(): PortMapMethodName | undefined {
    return this.method === 'auto' ? undefined : this.method;
  }

  private run(): void {
    if (!this.running) return;
    const controller = new AbortController();
    this.attempt = controller;
    this.inFlight = this.refresh(controller.signal).finally(() => {
      this.inFlight = undefined;
      this.attempt = undefined;
    });
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    this.timer = this.setTimer(() => {
      this.timer = undefined;
      this.run();
    }, ms);
  }

  private async refresh(signal: AbortSignal): Promise<void> {
    const renewing = this.reported?.ok === true;
    try {
      const held = await this.map(signal);
      if (!this.running) {
        this.held = held;
        return;
      }
      this.held = held;
      this.failures = 0;
      const state: PortMappingState = {
        ok: true,
        externalAddress: held.externalAddress,
        externalPort: held.externalPort,
        method: held.method,
      };
      this.report(state);
      if (renewing) this.tell(() => this.hooks.onRenew?.(state));
      this.schedule(held.lifetimeSec > 0 ? (held.lifetimeSec * 1000) / 2 : (this.opts.permanentCheckMs ?? 10 * 60_000));
    } catch (err) {
      if (!this.running) return;
      const e = asPortMapError(err, this.preferred ?? this.fixedMethod() ?? 'pcp', this.req.gateway ?? '');
      // The gateway may have moved (reboot, new description URL): the next attempt starts from
      // discovery. `held` stays: the next attempt asks for the same port again, and stop still
      // deletes what may be left at the gateway.
      this.igd = undefined;
      this.report({
        ok: false,
        method: e.params.method as PortMapMethodName | undefined,
        code: e.code,
        params: e.params,
        detail: e.message,
      });
      const min = this.opts.retryMinMs ?? 5000;
      const max = this.opts.retryMaxMs ?? 5 * 60_000;
      this.schedule(Math.min(max, min * 2 ** Math.min(this.failures, 20)));
      this.failures++;
    }
  }

  private report(state: PortMappingState): void {
    const prev = this.reported;
    const same =
      prev !== undefined &&
      prev.ok === state.ok &&
      prev.externalAddress === state.externalAddress &&
      prev.externalPort === state.externalPort &&
      prev.method === state.method &&
      prev.code === state.code;
    this.reported = state;
    if (!same) this.tell(() => this.hooks.onChange(state));
  }

  /** Calls a hook; its own failure is not the gateway's and must not stop the renewals. */
  private tell(call: () => void): void {
    try {
      call();
    } catch {
      // the caller's bug, reported nowhere better than its own code
    }
  }

  private udpOpts(signal: AbortSignal, maxTries = this.opts.udpMaxTries) {
    return {
      gateway: this.req.gateway && !/^http:/i.test(this.req.gateway) ? this.req.gateway : undefined,
      localAddress: this.req.localAddress ?? this.req.internalAddress,
      port: this.opts.gatewayPort,
      initialTimeoutMs: this.opts.udpInitialTimeoutMs,
      maxTries,
      signal,
    };
  }

  private upnpOpts(signal: AbortSignal) {
    return { localAddress: this.req.localAddress, timeoutMs: this.opts.httpTimeoutMs, signal };
  }

  /** Makes or renews the mapping with the configured method ('auto': as above). */
  private async map(signal: AbortSignal): Promise<Held> {
    const fixed = this.fixedMethod();
    if (fixed) return this.mapWith(fixed, signal, this.opts.udpMaxTries);
    if (this.preferred) {
      try {
        return await this.mapWith(this.preferred, signal, this.opts.udpMaxTries);
      } catch (err) {
        // Reported as it is; the next attempt probes again from PCP.
        this.preferred = undefined;
        throw err;
      }
    }
    // Probing: PCP gets at most AUTO_PROBE_TRIES requests (3.75 s) before NAT-PMP is asked.
    const probeTries = Math.min(this.opts.udpMaxTries ?? AUTO_PROBE_TRIES, AUTO_PROBE_TRIES);
    try {
      const held = await this.mapWith('pcp', signal, probeTries);
      this.preferred = 'pcp';
      return held;
    } catch (err) {
      const e = asPortMapError(err, 'pcp', this.req.gateway ?? '');
      // Any other answer (a refusal, port unreachable …) is the gateway's word on both protocols.
      if (e.code !== 'unsupportedVersion' && e.code !== 'timeout') throw e;
    }
    const held = await this.mapWith('natpmp', signal, this.opts.udpMaxTries);
    this.preferred = 'natpmp';
    return held;
  }

  private async mapWith(method: PortMapMethodName, signal: AbortSignal, maxTries: number | undefined): Promise<Held> {
    const r = this.req;
    const lifetime = r.leaseSec > 0 ? r.leaseSec : NATPMP_DEFAULT_LIFETIME;
    // A renewal asks for the port it holds, so the public endpoint stays.
    const suggested = this.held?.method === method ? this.held.externalPort : r.externalPort;
    if (method === 'pcp') {
      const m = await pcpMap(
        {
          protocol: r.protocol,
          internalPort: r.internalPort,
          externalPort: suggested,
          lifetimeSec: lifetime,
          nonce: this.nonce,
        },
        this.udpOpts(signal, maxTries),
      );
      return { method, externalAddress: m.externalAddress, externalPort: m.externalPort, lifetimeSec: m.lifetimeSec };
    }
    if (method === 'natpmp') {
      const opts = this.udpOpts(signal, maxTries);
      const m = await natpmpMap(
        { protocol: r.protocol, internalPort: r.internalPort, externalPort: suggested, lifetimeSec: lifetime },
        opts,
      );
      const a = await natpmpExternalAddress({ ...opts, gateway: m.gateway });
      return { method, externalAddress: a.externalAddress, externalPort: m.externalPort, lifetimeSec: m.lifetimeSec };
    }
    const opts = this.upnpOpts(signal);
    this.igd ??= await openGateway(r.gateway, opts);
    const { leaseSec } = await addPortMapping(
      this.igd,
      {
        protocol: r.protocol,
        externalPort: r.externalPort,
        internalPort: r.internalPort,
        internalClient: r.internalAddress,
        description: r.description,
        leaseSec: r.leaseSec,
      },
      opts,
    );
    const externalAddress = await getExternalAddress(this.igd, opts);
    return { method, externalAddress, externalPort: r.externalPort, lifetimeSec: leaseSec };
  }

  private async release(method: PortMapMethodName, externalPort: number, signal: AbortSignal): Promise<void> {
    const r = this.req;
    if (method === 'pcp') {
      await pcpUnmap({ protocol: r.protocol, internalPort: r.internalPort, nonce: this.nonce }, this.udpOpts(signal));
    } else if (method === 'natpmp') {
      await natpmpUnmap({ protocol: r.protocol, internalPort: r.internalPort }, this.udpOpts(signal));
    } else {
      const opts = this.upnpOpts(signal);
      const igd = this.igd ?? (await openGateway(r.gateway, opts));
      await deletePortMapping(igd, { protocol: r.protocol, externalPort }, opts);
    }
  }
}
