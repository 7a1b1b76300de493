// The clover mark, drawn inline so the login page needs no image request.
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <g fill="#2f9e44">
        <circle cx="11" cy="11" r="6.5" />
        <circle cx="21" cy="11" r="6.5" />
        <circle cx="11" cy="21" r="6.5" />
        <circle cx="21" cy="21" r="6.5" />
      </g>
      <circle cx="16" cy="16" r="3.2" fill="#fff" />
      <path d="M16 19 q1 6 5 10" stroke="#2b8a3e" strokeWidth="2" fill="none" strokeLinecap="round" />
    </svg>
  );
}
