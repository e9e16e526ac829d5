// Painting an inpainting mask over a picture: a canvas laid over the image,
// in the image's own pixels, painted with a pointer (mouse, pen, finger) or
// the keyboard (arrow keys move the brush, Space lifts or lowers it). The
// mask sent is a PNG where white marks the region to repaint, with the
// brush strokes' points in image pixels.
const MAX_POINTS = 2000;

export class MaskPainter {
  // img: the picture (loaded); stage: the element holding it, positioned.
  constructor(img, stage) {
    this.img = img;
    this.stage = stage;
    this.tool = 'brush';
    this.size = 40;                // brush diameter in image pixels
    this.points = [];
    this.painted = 0;
    this.onchange = null;
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'mask-layer';
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute('role', 'application');
    this.cursor = document.createElement('div');
    this.cursor.className = 'mask-cursor';
    this.cursor.hidden = true;
    this.key = { x: 0.5, y: 0.5, down: false };
    this.resize();
    this.bind();
  }

  resize() {
    const w = this.img.naturalWidth >= 16 ? this.img.naturalWidth : 1024;
    const hgt = this.img.naturalHeight >= 16 ? this.img.naturalHeight : Math.round(w * (this.img.clientHeight / Math.max(1, this.img.clientWidth)) || w);
    const scale = Math.min(1, 2048 / Math.max(w, hgt));
    this.k = scale;
    this.canvas.width = Math.round(w * scale);
    this.canvas.height = Math.round(hgt * scale);
    this.ctx = this.canvas.getContext('2d');
    this.ctx.lineCap = 'round';
    this.ctx.lineJoin = 'round';
  }

  attach() {
    this.stage.append(this.canvas, this.cursor);
    this.stage.classList.add('masking');
  }

  detach() {
    this.canvas.remove();
    this.cursor.remove();
    this.stage.classList.remove('masking');
  }

  // Display pixels to image pixels.
  scale() {
    const r = this.canvas.getBoundingClientRect();
    return { r, sx: this.canvas.width / Math.max(1, r.width), sy: this.canvas.height / Math.max(1, r.height) };
  }

  at(e) {
    const { r, sx, sy } = this.scale();
    return { x: (e.clientX - r.left) * sx, y: (e.clientY - r.top) * sy };
  }

  bind() {
    const c = this.canvas;
    let last = null;
    c.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 && e.pointerType === 'mouse') return;
      e.preventDefault();
      c.setPointerCapture?.(e.pointerId);
      c.focus({ preventScroll: true });
      last = this.at(e);
      this.stroke(last, last);
    });
    c.addEventListener('pointermove', (e) => {
      this.showCursor(e);
      if (!last) return;
      const p = this.at(e);
      this.stroke(last, p);
      last = p;
    });
    const end = () => { last = null; };
    c.addEventListener('pointerup', end);
    c.addEventListener('pointercancel', end);
    c.addEventListener('pointerleave', () => { if (!this.key.active) this.cursor.hidden = true; });
    c.addEventListener('keydown', (e) => this.keydown(e));
    c.addEventListener('focus', () => { this.key.active = true; this.placeKeyCursor(); });
    c.addEventListener('blur', () => { this.key.active = false; this.key.down = false; this.cursor.hidden = true; });
  }

  showCursor(e) {
    const r = this.canvas.getBoundingClientRect();
    this.moveCursor(e.clientX - r.left, e.clientY - r.top);
  }

  moveCursor(x, y) {
    const { sx } = this.scale();
    const d = this.size / sx;
    Object.assign(this.cursor.style, { width: `${d}px`, height: `${d}px`, left: `${x - d / 2}px`, top: `${y - d / 2}px` });
    this.cursor.dataset.tool = this.tool;
    this.cursor.hidden = false;
  }

  placeKeyCursor() {
    const r = this.canvas.getBoundingClientRect();
    this.moveCursor(this.key.x * r.width, this.key.y * r.height);
    this.cursor.classList.toggle('down', this.key.down);
  }

  keydown(e) {
    const step = e.shiftKey ? 0.1 : 0.025;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (e.key === ' ' || e.key === 'Enter') {
      e.preventDefault();
      this.key.down = !this.key.down;
      if (this.key.down) this.keyPaint(this.key.x, this.key.y);
      this.placeKeyCursor();
    } else if (moves[e.key]) {
      e.preventDefault();
      const [dx, dy] = moves[e.key];
      const from = { x: this.key.x, y: this.key.y };
      this.key.x = Math.min(1, Math.max(0, this.key.x + dx));
      this.key.y = Math.min(1, Math.max(0, this.key.y + dy));
      if (this.key.down) this.keyPaint(from.x, from.y);
      this.placeKeyCursor();
    } else if (e.key === 'Escape') {
      this.key.down = false;
      this.placeKeyCursor();
    }
  }

  keyPaint(fx, fy) {
    const W = this.canvas.width;
    const H = this.canvas.height;
    this.stroke({ x: fx * W, y: fy * H }, { x: this.key.x * W, y: this.key.y * H });
  }

  stroke(a, b) {
    const ctx = this.ctx;
    ctx.save();
    ctx.globalCompositeOperation = this.tool === 'eraser' ? 'destination-out' : 'source-over';
    ctx.strokeStyle = '#ff2d6f';
    ctx.fillStyle = '#ff2d6f';
    ctx.lineWidth = this.size;
    ctx.beginPath();
    if (a.x === b.x && a.y === b.y) {
      ctx.arc(a.x, a.y, this.size / 2, 0, Math.PI * 2);
      ctx.fill();
    } else {
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(b.x, b.y);
      ctx.stroke();
    }
    ctx.restore();
    if (this.tool === 'brush') {
      this.painted++;
      this.points.push({ x: b.x, y: b.y });
    }
    this.onchange?.();
  }

  clear() {
    this.ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    this.points = [];
    this.painted = 0;
    this.onchange?.();
  }

  // True when some of the mask is painted (an eraser may have removed it).
  isEmpty() {
    if (!this.painted) return true;
    const d = this.ctx.getImageData(0, 0, this.canvas.width, this.canvas.height).data;
    for (let i = 3; i < d.length; i += 16) if (d[i] > 0) return false;
    return true;
  }

  // The mask as a PNG data URL: white where painted, black elsewhere.
  toDataURL() {
    const out = document.createElement('canvas');
    out.width = this.canvas.width;
    out.height = this.canvas.height;
    const ctx = out.getContext('2d');
    ctx.drawImage(this.canvas, 0, 0);
    ctx.globalCompositeOperation = 'source-in';
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, out.width, out.height);
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, out.width, out.height);
    return out.toDataURL('image/png');
  }

  // The brush strokes' points, thinned to at most MAX_POINTS.
  coordinates() {
    const k = this.k || 1;
    const p = this.points.map((q) => ({ x: Math.round(q.x / k), y: Math.round(q.y / k) }));
    if (p.length <= MAX_POINTS) return p;
    const step = p.length / MAX_POINTS;
    const out = [];
    for (let i = 0; i < MAX_POINTS; i++) out.push(p[Math.floor(i * step)]);
    return out;
  }
}
