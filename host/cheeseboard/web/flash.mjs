// The web board's flash in the browser's storage: each file the firmware wrote (its journal,
// its synced rule tables) under cheeseboard:PROFILE:file:PATH, as base64. The firmware image
// itself comes from the server at every power-on; these files go on top of it.

export function toBase64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

export function fromBase64(text) {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

export class BrowserFlash {
  constructor(profile) {
    this.prefix = `cheeseboard:${profile}:file:`;
  }

  keys() {
    const keys = [];
    for (let i = 0; i < localStorage.length; i++) {
      if (localStorage.key(i).startsWith(this.prefix)) keys.push(localStorage.key(i));
    }
    return keys;
  }

  // {path: bytes} of every file kept.
  files() {
    const files = {};
    for (const k of this.keys()) files[k.slice(this.prefix.length)] = fromBase64(localStorage.getItem(k));
    return files;
  }

  // changed: [[path, bytes or null (removed)]], as vm.mjs's changed() gives them.
  keep(changed) {
    for (const [path, data] of changed) {
      if (data === null) localStorage.removeItem(this.prefix + path);
      else localStorage.setItem(this.prefix + path, toBase64(data));
    }
  }

  forget() {
    this.keys().forEach((k) => localStorage.removeItem(k));
  }
}
