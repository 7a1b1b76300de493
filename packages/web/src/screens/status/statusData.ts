// GET api/status `data`, read defensively: the overview must render whatever
// subset a server version sends, never crash on a missing or odd field.
/** `disabled`: the module's own switch is off (DDNS service, port forwarding). */
export type ModuleState = 'running' | 'stopped' | 'error' | 'disabled';
const MODULE_STATES: readonly unknown[] = ['running', 'stopped', 'error', 'disabled'] satisfies ModuleState[];

export interface InterfaceStatus {
  name: string;
  mac: string;
  addresses: { address: string; family: string; cidr: string }[];
  rxBytes: number;
  txBytes: number;
}

export interface StatusData {
  cpu: { percent: number | null; cores: number | null; model: string };
  memory: { total: number | null; used: number | null; free: number | null; percent: number | null };
  load: [number | null, number | null, number | null];
  uptime: { system: number | null; process: number | null };
  process: {
    rss: number | null;
    heapUsed: number | null;
    heapTotal: number | null;
    pid: number | null;
    nodeVersion: string;
  };
  connections: { tcp: number | null; udp: number | null; adminHttp: number | null };
  interfaces: InterfaceStatus[];
  /** `reason` (code + params) is shown in the UI language, `error` is the server's English. */
  modules: {
    key: string;
    state: ModuleState | 'unknown';
    error?: string;
    reason?: { code: string; params?: Record<string, unknown> };
  }[];
}

type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function normalizeStatus(raw: unknown): StatusData {
  const d = obj(raw);
  const cpu = obj(d.cpu);
  const mem = obj(d.memory);
  const up = obj(d.uptime);
  const proc = obj(d.process);
  const conn = obj(d.connections);
  const load = list(d.load);
  const total = num(mem.total);
  const used = num(mem.used);
  return {
    cpu: { percent: num(cpu.percent), cores: num(cpu.cores), model: str(cpu.model) },
    memory: {
      total,
      used,
      free: num(mem.free),
      // Derive the percentage when only the byte counts came.
      percent: num(mem.percent) ?? (total && used !== null ? (used / total) * 100 : null),
    },
    load: [num(load[0]), num(load[1]), num(load[2])],
    uptime: { system: num(up.system), process: num(up.process) },
    process: {
      rss: num(proc.rss),
      heapUsed: num(proc.heapUsed),
      heapTotal: num(proc.heapTotal),
      pid: num(proc.pid),
      nodeVersion: str(proc.nodeVersion),
    },
    connections: { tcp: num(conn.tcp), udp: num(conn.udp), adminHttp: num(conn.adminHttp) },
    interfaces: list(d.interfaces).map((i) => {
      const it = obj(i);
      return {
        name: str(it.name),
        mac: str(it.mac),
        addresses: list(it.addresses).map((a) => {
          const ad = obj(a);
          return { address: str(ad.address), family: str(ad.family), cidr: str(ad.cidr) };
        }),
        rxBytes: num(it.rxBytes) ?? 0,
        txBytes: num(it.txBytes) ?? 0,
      };
    }),
    modules: list(d.modules).map((m) => {
      const mo = obj(m);
      const state = MODULE_STATES.includes(mo.state) ? (mo.state as ModuleState) : 'unknown';
      const r = obj(mo.reason);
      const reason = typeof r.code === 'string' && r.code ? { code: r.code, params: obj(r.params) } : undefined;
      return {
        key: str(mo.key),
        state,
        ...(typeof mo.error === 'string' && mo.error ? { error: mo.error } : {}),
        ...(reason ? { reason } : {}),
      };
    }),
  };
}
