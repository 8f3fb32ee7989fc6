import { QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { MeridianProblemError } from './api/client.ts';
import { Layout, RequireSession } from './components/Layout.tsx';
import { PageSkeleton } from './components/Skeleton.tsx';
import { Dashboard } from './pages/Dashboard.tsx';
import { SignIn } from './pages/SignIn.tsx';

// Pages with charts load lightweight-charts on demand, so the first paint ships only what the dashboard needs.
const SymbolPage = lazy(() => import('./pages/SymbolPage.tsx'));
const Flows = lazy(() => import('./pages/Flows.tsx'));
const ApiKeys = lazy(() => import('./pages/ApiKeys.tsx'));
const Alerts = lazy(() => import('./pages/Alerts.tsx'));
const Portfolio = lazy(() => import('./pages/Portfolio.tsx'));
const AuthorizedApps = lazy(() => import('./pages/AuthorizedApps.tsx'));
const OAuthConsent = lazy(() => import('./pages/OAuthConsent.tsx'));
const AuditLog = lazy(() => import('./pages/AuditLog.tsx'));
const Organization = lazy(() => import('./pages/Organization.tsx'));

const queryClient = new QueryClient({
  queryCache: new QueryCache(),
  defaultOptions: {
    queries: {
      // A 4xx will not get better by asking again; network trouble and 5xx might.
      retry: (count, error) => !(error instanceof MeridianProblemError && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Routes>
          <Route path="/sign-in" element={<SignIn />} />
          <Route element={<RequireSession />}>
            <Route path="oauth/authorize" element={<Lazy page={<OAuthConsent />} />} />
            <Route element={<Layout />}>
              <Route index element={<Dashboard />} />
              <Route path="symbols/:symbol" element={<Lazy page={<SymbolPage />} />} />
              <Route path="flows" element={<Lazy page={<Flows />} />} />
              <Route path="alerts" element={<Lazy page={<Alerts />} />} />
              <Route path="portfolio" element={<Lazy page={<Portfolio />} />} />
              <Route path="settings" element={<Lazy page={<ApiKeys />} />} />
              <Route path="settings/keys" element={<Lazy page={<ApiKeys />} />} />
              <Route path="settings/apps" element={<Lazy page={<AuthorizedApps />} />} />
              <Route path="audit-log" element={<Lazy page={<AuditLog />} />} />
              <Route path="organization" element={<Lazy page={<Organization />} />} />
            </Route>
          </Route>
        </Routes>
      </BrowserRouter>
    </QueryClientProvider>
  );
}

function Lazy({ page }: { page: React.ReactNode }) {
  return <Suspense fallback={<PageSkeleton />}>{page}</Suspense>;
}
