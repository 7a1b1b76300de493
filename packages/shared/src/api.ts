// The response envelope every admin call uses: `ret` 0 = ok, -1 = session
// invalid (the browser goes to /login), anything else = an error with `msg`.
export const RET_OK = 0;
export const RET_SESSION_INVALID = -1;
export const RET_ERROR = 1;

export interface ApiOk {
  ret: 0;
  msg?: string;
}
export interface ApiError {
  ret: number;
  msg: string;
  /** Dotted path of the offending field for validation errors, e.g. `adminPort`. */
  field?: string;
}

export interface VersionResponse {
  ret: 0;
  version: string;
  twoFAEnable: boolean;
}
export interface TwoFAStatusResponse {
  ret: 0;
  twoFAEnable: boolean;
}
export interface ModulesListResponse {
  ret: 0;
  Modules: string[];
  /** The signed-in administrator. */
  u: { account: string; passwordIsDefault: boolean; twoFAEnable: boolean };
}
export interface LogLine {
  timestamp: string;
  log: string;
}
export interface LogsResponse {
  ret: 0;
  starttime: string;
  logs: LogLine[];
}
export interface FrontendControlResponse {
  ret: 0;
  FrontendDisableAutoExpandLeftMenu: boolean;
}
export interface LoginRequest {
  Account: string;
  Password: string;
  TwoFACode?: string;
}
export interface LoginResponse {
  ret: 0;
  msg: string;
  token: string;
}
export interface RemoteAppInfo {
  ret: number;
  lastVersion: [string, string] | string[];
  V2L: string;
  staticHost: string;
  appinfourl: string;
}

/** One interface of GET /api/netinterfaces (the ancestor's shape). */
export interface NetIf {
  NetInterfaceName: string;
  /** MAC address; empty in the IPv6 list. */
  HardwareAddr: string;
  AddressList: string[];
}
/** GET /api/netinterfaces: interfaces with their IPv4 and IPv6 addresses. */
export interface NetInterfacesResponse {
  ret: 0;
  data: { IPv4NewInterfaces: NetIf[] | null; IPv6NewInterfaces: NetIf[] | null };
}
