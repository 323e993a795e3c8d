import type { LoginStatus, VindicationInfo, VindicationInfoResponse } from '@portal/contracts';
import type { CompanyRow } from './companies.repository.ts';

/** Minutes a limited company may work when the admin set no working time. */
const DEFAULT_WORKING_MINUTES = 60;

export type StatusVerdict =
  | { allowed: true; response: VindicationInfoResponse; startWindowAt?: Date }
  | { allowed: false; code: 'auth.account_blocked' | 'auth.system_disabled'; response: VindicationInfoResponse };

function info(company: CompanyRow | undefined, status: LoginStatus, start: Date | null): VindicationInfo {
  return {
    loginStatus: status,
    restrictionWaitTime: company?.restrictionWaitTime ?? null,
    restrictionWorkingTime: company?.restrictionWorkingTime ?? null,
    restrictionWorkingStart: start ? start.toISOString() : null,
    restrictionMessage: company?.restrictionMessage ?? null,
  };
}

/**
 * Decides whether a company's users may work now (docs/decisions/0003-company-status.md).
 * OK_LIMITED companies work in windows of `restrictionWorkingTime` minutes, each followed by a pause of
 * `restrictionWaitTime` minutes during which they are BLOCKED; `hoursDelayLogout` is the seconds left in the window.
 */
export function evaluateCompanyStatus(company: CompanyRow | undefined, now: Date): StatusVerdict {
  const status = (company?.loginStatus ?? 'OK') as LoginStatus;
  const start = company?.restrictionWorkingStart ?? null;
  if (status === 'BLOCKED') {
    return {
      allowed: false,
      code: 'auth.account_blocked',
      response: { hoursDelayLogout: 0, vindicationInfo: info(company, 'BLOCKED', start) },
    };
  }
  if (status === 'SYS_DISABLE') {
    return {
      allowed: false,
      code: 'auth.system_disabled',
      response: { hoursDelayLogout: 0, vindicationInfo: info(company, 'SYS_DISABLE', start) },
    };
  }
  if (status !== 'OK_LIMITED') {
    return { allowed: true, response: { hoursDelayLogout: 0, vindicationInfo: info(company, status, start) } };
  }
  const workingMs = (company?.restrictionWorkingTime ?? DEFAULT_WORKING_MINUTES) * 60_000;
  const waitMs = (company?.restrictionWaitTime ?? 0) * 60_000;
  if (start) {
    const elapsed = now.getTime() - start.getTime();
    if (elapsed >= 0 && elapsed < workingMs) {
      const left = Math.ceil((workingMs - elapsed) / 1000);
      return {
        allowed: true,
        response: { hoursDelayLogout: left, vindicationInfo: info(company, 'OK_LIMITED', start) },
      };
    }
    if (elapsed >= workingMs && elapsed < workingMs + waitMs) {
      return {
        allowed: false,
        code: 'auth.account_blocked',
        response: { hoursDelayLogout: 0, vindicationInfo: info(company, 'BLOCKED', start) },
      };
    }
  }
  // No window yet, or the last one and its pause are over: a new window starts now.
  return {
    allowed: true,
    startWindowAt: now,
    response: { hoursDelayLogout: Math.floor(workingMs / 1000), vindicationInfo: info(company, 'OK_LIMITED', now) },
  };
}
