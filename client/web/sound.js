// sound.js: the board's short sounds, synthesized with WebAudio (no sound
// files, so no asset licences). model.js says which cue an event asks for
// (cueFor, lowCue); this plays it unless muted. The AudioContext is made at
// the first cue: browsers let it sound only after the player has touched
// the page, which every path into a game does (a click on Play, Join...).

// Each cue: its notes as [frequency Hz, start s, length s], a waveform and
// a peak gain. Short and soft, distinct by pitch and direction.
const CUES = {
  move: { wave: 'triangle', gain: 0.25, notes: [[520, 0, 0.06]] },
  turn: { wave: 'sine', gain: 0.2, notes: [[660, 0, 0.09], [880, 0.1, 0.12]] },
  start: { wave: 'sine', gain: 0.2, notes: [[523, 0, 0.1], [659, 0.1, 0.1], [784, 0.2, 0.16]] },
  paired: { wave: 'sine', gain: 0.2, notes: [[784, 0, 0.1], [1047, 0.11, 0.18]] },
  challenge: { wave: 'sine', gain: 0.2, notes: [[1047, 0, 0.1], [784, 0.11, 0.1], [1047, 0.22, 0.14]] },
  end: { wave: 'sine', gain: 0.2, notes: [[784, 0, 0.12], [659, 0.13, 0.12], [523, 0.26, 0.24]] },
  low: { wave: 'square', gain: 0.08, notes: [[988, 0, 0.07], [988, 0.14, 0.07], [988, 0.28, 0.07]] },
};

export class Sounds {
  // muted: the player's remembered choice.
  constructor(muted) {
    this.muted = !!muted;
    this.ctx = null;
  }

  // Plays a cue; false when it did not (muted, unknown, no WebAudio).
  play(cue) {
    const c = CUES[cue];
    if (!c || this.muted) return false;
    const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
    if (!Ctx) return false;
    if (!this.ctx) this.ctx = new Ctx();
    if (this.ctx.state === 'suspended') this.ctx.resume().catch(() => {});
    const t0 = this.ctx.currentTime + 0.01;
    for (const [freq, at, len] of c.notes) {
      const osc = this.ctx.createOscillator();
      const amp = this.ctx.createGain();
      osc.type = c.wave;
      osc.frequency.value = freq;
      // a quick attack and an exponential fall: no click at either end
      amp.gain.setValueAtTime(0.0001, t0 + at);
      amp.gain.exponentialRampToValueAtTime(c.gain, t0 + at + 0.01);
      amp.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
      osc.connect(amp).connect(this.ctx.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + len + 0.02);
    }
    return true;
  }
}
