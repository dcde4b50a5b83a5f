// One renderer module per game, named as the registry names the game (aztack, stakz,
// shifting-stones, space-aztecs, stack-back). Each exports render(view, ui) -> <svg> and
// describe(action, t) -> words for a move.
const cache = new Map();

export async function loadRenderer(game) {
  if (!/^[a-z-]+$/.test(game)) throw new Error(`no renderer for ${game}`);
  if (!cache.has(game)) cache.set(game, import(`./${game}.js`));
  return cache.get(game);
}
