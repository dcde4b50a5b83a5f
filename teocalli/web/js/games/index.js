// One renderer module per game, <name>.js, named as the registry names the game (the convention
// of teocalli/parts.py; tests/test_parts.py names a registered game without one). Each exports
// render(view, ui) -> <svg> and describe(action, t) -> words for a move.
const cache = new Map();

export async function loadRenderer(game) {
  if (!/^[a-z-]+$/.test(game)) throw new Error(`no renderer for ${game}`);
  if (!cache.has(game)) cache.set(game, import(`./${game}.js`));
  return cache.get(game);
}
