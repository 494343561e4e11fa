// daemon.mjs: a gomokud of a browser test's own on a loopback port, and a
// certificate a browser can be told to trust, for tests/browser/*.mjs.
//   startDaemon({ bindir, conf, stateDir, port }) starts it (port 0: an
//     ephemeral one) and resolves when its log says where it listens: the
//     ChildProcess with .port, .log (its stderr so far), .dead and .status;
//   killDaemon(p, sig) signals it by its pid and resolves when it exited;
//   makeCertificates(dir) makes a CA in dir with openssl, issues a
//     certificate for 127.0.0.1 and localhost from it, and returns the
//     PEM files' paths and the base64 SHA-256 of each public key (SPKI),
//     the form of Chromium's --ignore-certificate-errors-spki-list.
import { execFileSync, spawn } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const T = 15000; // the longest a start may take

export function startDaemon({ bindir = 'bin', conf, stateDir, port = 0 }) {
  return new Promise((resolve, reject) => {
    const args = ['--state-dir', stateDir, '--listen', `127.0.0.1:${port}`, '--log-level', 'info'];
    if (conf) args.unshift('--config', conf);
    const p = spawn(`${bindir}/gomokud`, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    p.log = '';
    const timer = setTimeout(() => reject(new Error(`gomokud did not start: ${p.log}`)), T);
    p.stderr.on('data', (b) => {
      p.log += b;
      const m = /listening on 127\.0\.0\.1:([0-9]+)/.exec(p.log);
      if (m && !p.port) {
        p.port = Number(m[1]);
        clearTimeout(timer);
        resolve(p);
      }
    });
    p.on('exit', (code, sig) => {
      p.dead = true;
      p.status = sig ? `signal ${sig}` : code;
      if (!p.port) {
        clearTimeout(timer);
        reject(new Error(`gomokud exited (${p.status}): ${p.log}`));
      }
    });
  });
}

export function killDaemon(p, sig = 'SIGTERM') {
  return new Promise((resolve) => {
    if (p.dead) {
      resolve(p.status);
      return;
    }
    p.on('exit', () => resolve(p.status));
    p.kill(sig);
  });
}

function spki(pemFile) {
  const der = new X509Certificate(readFileSync(pemFile)).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest('base64');
}

export function makeCertificates(dir) {
  const f = (name) => join(dir, name);
  const ossl = (...args) => execFileSync('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  ossl('req', '-x509', ...ec, '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '2',
    '-subj', '/CN=gomokud test CA', '-addext', 'basicConstraints=critical,CA:TRUE',
    '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  ossl('req', ...ec, '-keyout', f('key.pem'), '-out', f('cert.csr'), '-subj', '/CN=localhost');
  writeFileSync(f('cert.ext'), 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n' +
    'extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n');
  ossl('x509', '-req', '-in', f('cert.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'),
    '-CAcreateserial', '-days', '2', '-extfile', f('cert.ext'), '-out', f('cert.pem'));
  return { ca: f('ca.pem'), cert: f('cert.pem'), key: f('key.pem'), caSpki: spki(f('ca.pem')), certSpki: spki(f('cert.pem')) };
}
