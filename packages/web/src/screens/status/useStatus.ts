import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { get } from '../../api/client';
import { pushSample, type Sample } from './history';
import { normalizeStatus, type StatusData } from './statusData';

/** Polls the overview at the chosen interval and keeps the chart history. */
export function useStatus(intervalMs: number) {
  const query = useQuery({
    queryKey: ['status'],
    queryFn: async ({ signal }) => {
      const r = await get<{ ret: number; data?: unknown }>('api/status', { signal });
      return normalizeStatus(r.data);
    },
    refetchInterval: intervalMs,
    // A hidden tab does not need a live overview.
    refetchIntervalInBackground: false,
  });
  const [history, setHistory] = useState<Sample[]>([]);
  const { data, dataUpdatedAt } = query;

  useEffect(() => {
    if (data && dataUpdatedAt) setHistory((h) => pushSample(h, data as StatusData, dataUpdatedAt));
  }, [data, dataUpdatedAt]);

  return { ...query, history };
}
