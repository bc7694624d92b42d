import { render } from 'preact';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { useEffect, useState } from 'preact/hooks';
import { api, forgetSession, refreshSession, setSignedOutHandler, signOut, unwrap, type Schemas } from './api/client.ts';
import { loadPreferences } from './api/preferences.ts';
import { Loading } from './components/ui.tsx';
import { WorkspaceSwitcher } from './components/workspace-switcher.tsx';
import { AcceptPage, AcceptSignedOutPage } from './pages/accept.tsx';
import { AnalyticsPage } from './pages/analytics.tsx';
import { PerformancePage } from './pages/performance.tsx';
import { ForgotPasswordPage } from './pages/forgot-password.tsx';
import { ResetPasswordPage } from './pages/reset-password.tsx';
import { ApprovalsPage } from './pages/approvals.tsx';
import { KeywordsPage } from './pages/keywords.tsx';
import { SettingsPage } from './pages/settings.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { SitePage } from './pages/site.tsx';
import { SitesPage } from './pages/sites.tsx';
import { TaskPage } from './pages/task.tsx';
import { TasksPage } from './pages/tasks.tsx';
import { RollbacksPage } from './pages/rollbacks.tsx';
import { WorkspacesPage } from './pages/workspaces.tsx';
import './styles.css';

export type User = Schemas extends { User: infer U } ? U : { id: string; email: string; name: string; role: string };

/** Each section with the paths that belong to it (a site's page is under Sites, the rollback history under Tasks). */
const NAV = [
  { href: '/sites', label: 'Sites', also: ['/'] },
  { href: '/approvals', label: 'Approvals' },
  { href: '/tasks', label: 'Tasks', also: ['/rollbacks'] },
  { href: '/performance', label: 'Performance' },
  { href: '/analytics', label: 'Analytics' },
  { href: '/keywords', label: 'Keywords' },
  { href: '/workspaces', label: 'Workspaces' },
  { href: '/settings', label: 'Settings' },
];

function Shell({ user, onUser, onSignOut, onSignedOutEverywhere }: { user: User; onUser: (user: User) => void; onSignOut: () => void; onSignedOutEverywhere: () => void }) {
  const { path } = useLocation();
  // Moving to another page: its heading takes the focus, so screen readers announce it.
  useEffect(() => {
    document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
  }, [path]);
  return (
    <>
      <a class="skip-link" href="#main">Skip to content</a>
      <header class="topbar">
        <a class="brand" href="/sites">
          <span class="brand-mark" aria-hidden="true">◆</span> Site Optimization
        </a>
        <WorkspaceSwitcher />
        <nav aria-label="Main" class="mainnav">
          {NAV.map((item) => (
            <a href={item.href} aria-current={[item.href, ...(item.also ?? [])].some((p) => path === p || (p !== '/' && path.startsWith(`${p}/`))) ? 'page' : undefined}>{item.label}</a>
          ))}
        </nav>
        <div class="account">
          <span class="account-name" title={user.email}>{user.name}</span>
          <button type="button" class="btn btn-small btn-ghost" onClick={onSignOut}>Sign out</button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Router>
          <Route path="/" component={SitesPage} />
          <Route path="/sites" component={SitesPage} />
          <Route path="/sites/:id" component={SitePage} />
          <Route path="/approvals" component={ApprovalsPage} />
          <Route path="/tasks" component={TasksPage} />
          <Route path="/tasks/:id" component={TaskPage} />
          <Route path="/rollbacks" component={RollbacksPage} />
          <Route path="/performance" component={PerformancePage} />
          <Route path="/analytics" component={AnalyticsPage} />
          <Route path="/keywords" component={KeywordsPage} />
          <Route path="/settings" component={() => <SettingsPage user={user} onUser={onUser} onSignedOutEverywhere={onSignedOutEverywhere} />} />
          <Route path="/workspaces" component={() => <WorkspacesPage user={user} />} />
          <Route path="/workspaces/:id" component={() => <WorkspacesPage user={user} />} />
          <Route path="/invitations/:token" component={() => <AcceptPage user={user} />} />
          <Route default component={NotFound} />
        </Router>
      </main>
    </>
  );
}

function NotFound() {
  return (
    <section class="page">
      <h1 tabIndex={-1}>Page not found</h1>
      <p>There is nothing at this address. <a href="/sites">Go to your sites</a>.</p>
    </section>
  );
}

function App() {
  const { path, route } = useLocation();
  const [user, setUser] = useState<User | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>();
  /** The service has ended this session already (a reset, sign out everywhere): back to sign-in, saying why. */
  const signedOut = (message: string) => {
    forgetSession();
    setNotice(message);
    setUser(null);
    route('/');
  };
  /** Signed in: the user (and the time zone dates are shown in), and (after accepting an invitation) the page to go to, in one render. */
  const loadMe = async (then?: string) => {
    const [me] = await Promise.all([api.GET('/api/v1/auth/me').then((r) => unwrap(r) as User), loadPreferences()]);
    if (then) route(then);
    setUser(me);
  };

  useEffect(() => {
    setSignedOutHandler(() => {
      setNotice('Your session has ended. Sign in again to continue.');
      setUser(null);
    });
    // A reload: the session cookie (if any) gives a fresh access token.
    refreshSession().then((ok) => (ok ? loadMe() : setUser(null))).catch(() => setUser(null));
  }, []);

  // Pages for someone who cannot sign in: shown signed in or not, without the app's frame.
  if (path === '/forgot-password') return <ForgotPasswordPage />;
  if (path === '/reset-password') return <ResetPasswordPage onReset={() => signedOut('Your password is changed. Sign in with it.')} />;
  if (user === undefined) return <div class="boot"><Loading label="Opening your workspace" /></div>;
  // An invitation's link works signed out: it can make the account it is for.
  if (user === null && path.startsWith('/invitations/')) {
    return (
      <Router>
        {[<Route path="/invitations/:token" component={() => <AcceptSignedOutPage onSignedIn={(then) => { setNotice(undefined); return loadMe(then); }} />} />]}
      </Router>
    );
  }
  if (user === null) return <SignInPage notice={notice} onSignedIn={() => { setNotice(undefined); return loadMe(); }} />;
  return (
    <Shell
      user={user}
      onUser={setUser}
      onSignedOutEverywhere={() => signedOut('You are signed out on every device.')}
      onSignOut={async () => {
        await signOut();
        setNotice('You are signed out.');
        setUser(null);
      }}
    />
  );
}

render(
  <LocationProvider>
    <App />
  </LocationProvider>,
  document.getElementById('app')!,
);
