import express, { type NextFunction, type Request, type Response } from 'express';
import { hashPassword } from '../auth/credentials';
import type { Stoa } from '../stoa';
import { updateAccount } from '../users/settings-store';
import { MIN_PASSWORD_LENGTH } from '../users/names';
import { sendPlainPage } from '../web/serve';
import { confirmEmailChange, requestPasswordReset, resetPassword } from './account-emails';
import { CONFIRM_EMAIL_PATH, PASSWORD_RESET_PATH, UNSUBSCRIBE_PATH, workingLink } from './links';
import { escapeHtml } from './outgoing';

/**
 * The pages that links in Stoa's emails open, and the "Forgot your password?" form, at Zulip's
 * addresses. They are plain HTML forms that work without the client's script and without a
 * login: the key in the address is the proof. Only with --smtp: without mail they do not exist.
 */
export function mountAccountPages(app: express.Express, stoa: Stoa): void {
  if (!stoa.mailer.configured) return;
  // Small forms only: an email address, or a password twice.
  const form = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 10 });
  const page = (view: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) => {
    view(req, res).catch(next);
  };
  const field = (req: Request, name: string): string => {
    const value = (req.body as Record<string, unknown> | undefined)?.[name];
    return typeof value === 'string' ? value : '';
  };
  const show = (res: Response, title: string, body: string, status = 200) => sendPlainPage(stoa, res, status, title, body);
  const loginLink = '<p><a href="/login">Go to the login page</a></p>';
  const linkProblem = (res: Response, what: string) =>
    show(res, 'This link does not work', `<p>${escapeHtml(what)}</p>${loginLink}`, 404);

  // "Forgot your password?"
  const resetForm = (error = '') =>
    `<p>Enter the email address of your account. If it has one, a link to choose a new password will be sent to it.</p>
<form method="post" action="${PASSWORD_RESET_PATH}/">
<label>Email <input type="email" name="email" autocomplete="username" required maxlength="254"></label>
${error ? `<p class="form-error" role="alert">${escapeHtml(error)}</p>` : ''}<button type="submit" class="primary">Send reset link</button>
</form>${loginLink}`;
  app.get(PASSWORD_RESET_PATH, page((_req, res) => show(res, 'Reset your password', resetForm())));
  app.post(PASSWORD_RESET_PATH, form, page(async (req, res) => {
    const email = field(req, 'email');
    if (email.trim() === '') return show(res, 'Reset your password', resetForm('Enter your email address.'), 400);
    const wait = requestPasswordReset(stoa, email);
    if (wait > 0) {
      res.setHeader('Retry-After', String(wait));
      return show(res, 'Reset your password', resetForm(`Too many reset emails were sent to this address. Try again in ${Math.ceil(wait / 60)} minutes.`), 429);
    }
    res.redirect(303, `${PASSWORD_RESET_PATH}/done/`);
  }));
  app.get(`${PASSWORD_RESET_PATH}/done`, page((_req, res) =>
    show(res, 'Check your email', '<p>If the address you entered has an account here, an email with a link to choose a new password is on its way. The link works once, for three days.</p><p>Nothing arrived? Look in your spam folder, and check that you entered the address of your account.</p>' + loginLink),
  ));

  // The link in a password reset email: choose the new password.
  const newPasswordForm = (key: string, error = '') =>
    `<form method="post" action="${PASSWORD_RESET_PATH}/${escapeHtml(key)}/">
<label>New password <input type="password" name="new_password1" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="1000"></label>
<label>Confirm the new password <input type="password" name="new_password2" autocomplete="new-password" required minlength="${MIN_PASSWORD_LENGTH}" maxlength="1000"></label>
${error ? `<p class="form-error" role="alert">${escapeHtml(error)}</p>` : ''}<button type="submit" class="primary">Change password</button>
</form>`;
  const expiredReset = (res: Response) =>
    linkProblem(res, 'This password reset link has expired or has already been used. You can ask for a new one from the login page ("Forgot your password?").');
  app.get(`${PASSWORD_RESET_PATH}/:key`, page(async (req, res) => {
    const key = String(req.params.key);
    const link = workingLink(stoa, 'password_reset', key);
    if (!link) return expiredReset(res);
    const email = stoa.users.byId(link.user_id)!.delivery_email;
    return show(res, 'Choose a new password', `<p>For the account ${escapeHtml(email)}.</p>${newPasswordForm(key)}`);
  }));
  app.post(`${PASSWORD_RESET_PATH}/:key`, form, page(async (req, res) => {
    const key = String(req.params.key);
    const link = workingLink(stoa, 'password_reset', key);
    if (!link) return expiredReset(res);
    const [first, second] = [field(req, 'new_password1'), field(req, 'new_password2')];
    let problem = '';
    if (first !== second) problem = 'The two passwords are not the same.';
    else if (first.length < MIN_PASSWORD_LENGTH) problem = `The password is too short: use at least ${MIN_PASSWORD_LENGTH} characters.`;
    else if (first.length > 1000) problem = 'The password is too long.';
    if (problem) return show(res, 'Choose a new password', newPasswordForm(key, problem), 400);
    const passwordHash = await hashPassword(first);
    // The link may have been used by another request while the password was hashed.
    if (!workingLink(stoa, 'password_reset', key)) return expiredReset(res);
    resetPassword(stoa, key, link.user_id, passwordHash);
    return show(res, 'Password changed', '<p>Your password has been changed, and every browser and app signed in to your account was signed out.</p><p><a href="/login">Log in with your new password</a></p>');
  }));

  // The link in the mail sent to a new address: the change happens now.
  app.get(`${CONFIRM_EMAIL_PATH}/:key`, page(async (req, res) => {
    const key = String(req.params.key);
    const link = workingLink(stoa, 'email_change', key);
    if (!link) return linkProblem(res, 'This confirmation link has expired, has already been used, or was replaced by a newer one. You can ask for the change again in your account settings.');
    const problem = confirmEmailChange(stoa, key, link.user_id, link.new_email!);
    if (problem) return show(res, 'Email not changed', `<p>${escapeHtml(problem)}</p>${loginLink}`, 400);
    return show(res, 'Email address changed', `<p>The email address of your account is now ${escapeHtml(link.new_email!)}. Use it to log in from now on.</p><p><a href="/">Open ${escapeHtml(stoa.realm.get()!.name)}</a></p>`);
  }));

  // The unsubscribe link of missed-message emails. POST too: mail programs unsubscribe with
  // one click that way (List-Unsubscribe-Post, RFC 8058).
  const unsubscribe = page(async (req, res) => {
    const link = req.params.type === 'missed_messages' ? workingLink(stoa, 'unsubscribe', String(req.params.key)) : undefined;
    if (!link) return linkProblem(res, 'This unsubscribe link is not valid. You can turn email notifications off in your notification settings.');
    updateAccount(stoa, link.user_id, { settings: { enable_offline_email_notifications: false } });
    return show(res, 'Unsubscribed', `<p>You will no longer get emails about messages you missed. You can turn them on again in your <a href="/#settings/notifications">notification settings</a>.</p>`);
  });
  app.get(`${UNSUBSCRIBE_PATH}/:type/:key`, unsubscribe);
  app.post(`${UNSUBSCRIBE_PATH}/:type/:key`, form, unsubscribe);
}
